/**
 * The message list's rows: the stored conversation plus the turn streaming now. Pure functions,
 * so the store stays a thin reactive shell and the merging rules are tested directly.
 */
import type { ChatMessage, LoadedTool, MessageAttachment, ToolCallCard, ToolCallOutcome, ToolCallState, TurnState } from '../../../src-preload/contract/chat';
import type { AppError, Diagnosis } from '../../../src-preload/contract/common';
import type { ToolResult } from '../../../src-preload/contract/tools';
import type { CallProgress, TaskView } from '../../../src-preload/contract/tasks';

export interface LiveSegment {
  text: string;
  callIds: string[];
}

/** What has streamed in for one conversation since its turn began. */
/** Why a turn failed, and its class and fix when known (a transient one offers Retry). */
export interface TurnFailure {
  text: string;
  diagnosis?: Diagnosis;
}

export interface LiveTurn {
  state: TurnState;
  error?: string;
  diagnosis?: Diagnosis;
  /** The user's message, shown until the stored conversation has it. */
  pendingUser?: string;
  segments: LiveSegment[];
  cards: Record<string, ToolCallCard>;
}

export interface CallView {
  callId: string;
  name: string;
  server?: string;
  tool?: string;
  args: Record<string, unknown>;
  argsError?: string;
  state: ToolCallState;
  because?: string;
  progress?: CallProgress;
  /** The call runs as a task on the server: its last known status. */
  task?: TaskView;
  startedAt?: number;
  elapsedMs?: number;
  /** What the server answered, as it answered it. */
  result?: ToolResult;
  /** The MCP App that renders the result, when the tool has one. */
  appUri?: string;
  error?: string;
  /** The failure's class and fix. */
  diagnosis?: Diagnosis;
  /** Tools the search tool loaded for the rest of the conversation. */
  loaded?: LoadedTool[];
}

export type ChatRow =
  | { key: string; kind: 'user'; text: string; attachments?: MessageAttachment[] }
  | { key: string; kind: 'assistant'; text: string; calls: CallView[]; streaming: boolean }
  | { key: string; kind: 'status'; text: string; tone: 'info' | 'error'; diagnosis?: Diagnosis };

export const emptyTurn = (pendingUser?: string): LiveTurn => ({
  state: 'streaming',
  segments: [],
  cards: {},
  ...(pendingUser !== undefined ? { pendingUser } : {}),
});

export const isTurnOver = (state: TurnState): boolean => state === 'done' || state === 'cancelled' || state === 'failed';

/** Text after a tool call starts a new assistant message, as the model's next step. */
export function withDelta(turn: LiveTurn, text: string): LiveTurn {
  const segments = [...turn.segments];
  const last = segments.at(-1);
  if (!last || last.callIds.length > 0) segments.push({ text, callIds: [] });
  else segments[segments.length - 1] = { ...last, text: last.text + text };
  return { ...turn, segments };
}

export function withCard(turn: LiveTurn, card: ToolCallCard): LiveTurn {
  const known = Object.hasOwn(turn.cards, card.callId);
  const cards = { ...turn.cards, [card.callId]: card };
  if (known) return { ...turn, cards };
  const segments = [...turn.segments];
  const last = segments.at(-1) ?? { text: '', callIds: [] };
  if (segments.length === 0) segments.push(last);
  segments[segments.length - 1] = { ...last, callIds: [...last.callIds, card.callId] };
  return { ...turn, cards, segments };
}

export function withState(turn: LiveTurn, state: TurnState, error?: string, diagnosis?: Diagnosis): LiveTurn {
  const next: LiveTurn = { ...turn, state };
  if (error !== undefined) next.error = error;
  else delete next.error;
  if (diagnosis !== undefined) next.diagnosis = diagnosis;
  else delete next.diagnosis;
  return next;
}

const fromCard = (card: ToolCallCard): CallView => ({
  callId: card.callId,
  name: card.name,
  args: card.args,
  state: card.state,
  ...(card.result !== undefined ? { result: card.result } : {}),
  ...(card.appUri !== undefined ? { appUri: card.appUri } : {}),
  ...(card.server !== undefined ? { server: card.server } : {}),
  ...(card.tool !== undefined ? { tool: card.tool } : {}),
  ...(card.because !== undefined ? { because: card.because } : {}),
  ...(card.progress !== undefined ? { progress: card.progress } : {}),
  ...(card.task !== undefined ? { task: card.task } : {}),
  ...(card.startedAt !== undefined ? { startedAt: card.startedAt } : {}),
  ...(card.elapsedMs !== undefined ? { elapsedMs: card.elapsedMs } : {}),
  ...(card.error !== undefined ? { error: card.error } : {}),
  ...(card.diagnosis !== undefined ? { diagnosis: card.diagnosis } : {}),
  ...(card.loaded !== undefined ? { loaded: card.loaded } : {}),
});

const fromOutcome = (outcome: ToolCallOutcome, card: ToolCallCard | undefined): CallView => ({
  ...(card ? fromCard(card) : {}),
  callId: outcome.callId,
  name: outcome.name,
  args: outcome.args,
  state: outcome.state,
  ...(outcome.result !== undefined ? { result: outcome.result } : {}),
  ...(outcome.appUri !== undefined ? { appUri: outcome.appUri } : {}),
  ...(outcome.server !== undefined ? { server: outcome.server } : {}),
  ...(outcome.tool !== undefined ? { tool: outcome.tool } : {}),
  ...(outcome.because !== undefined ? { because: outcome.because } : {}),
  ...(outcome.elapsedMs !== undefined ? { elapsedMs: outcome.elapsedMs } : {}),
  ...(outcome.loaded !== undefined ? { loaded: outcome.loaded } : {}),
  ...outcomeError(outcome),
});

/** A failure's reason once: the stored error, else what the model was told (a denial already reads as `because`). */
function outcomeError(outcome: ToolCallOutcome): { error?: string; diagnosis?: Diagnosis } {
  if (outcome.diagnosis !== undefined) return { ...(outcome.error !== undefined ? { error: outcome.error } : {}), diagnosis: outcome.diagnosis };
  if (outcome.error !== undefined) return { error: outcome.error };
  if (outcome.state === 'failed' && outcome.result === undefined) return { error: outcome.textForModel };
  if (outcome.state === 'denied' && outcome.because === undefined) return { error: outcome.textForModel };
  return {};
}

/**
 * @param settledCards cards of turns that ended in this session: they add what stored outcomes
 *   lack (why a call ran without asking, elapsed time) until the page reloads.
 */
/**
 * A row with tool calls is keyed by its first call, the same while the turn is live and once it is stored:
 * its cards (and any app running in one) stay mounted when the turn ends instead of starting over.
 */
const rowKey = (fallback: string, calls: CallView[]): string => (calls[0] ? `call:${calls[0].callId}` : fallback);

export function buildRows(
  messages: readonly ChatMessage[],
  live: LiveTurn | undefined,
  lastError?: TurnFailure,
  settledCards: Readonly<Record<string, ToolCallCard>> = {},
): ChatRow[] {
  const outcomes = new Map<string, ToolCallOutcome>();
  for (const message of messages) if (message.role === 'tool') for (const result of message.results) outcomes.set(result.callId, result);
  const liveCards = live?.cards ?? {};
  const cards = { ...settledCards, ...liveCards };
  const shown = new Set<string>();
  const rows: ChatRow[] = [];

  messages.forEach((message, i) => {
    switch (message.role) {
      case 'user':
        rows.push({ key: `m${i}`, kind: 'user', text: message.text, ...(message.attachments?.length ? { attachments: message.attachments } : {}) });
        return;
      case 'assistant': {
        // The provider's own tool searches (Anthropic): shown as a card of what each loaded, before the reply's calls.
        const searches = (message.toolSearches ?? []).map((search): CallView => {
          shown.add(search.id);
          return { ...(cards[search.id] ? fromCard(cards[search.id]!) : {}), callId: search.id, name: 'tool_search', args: { query: search.query }, state: 'succeeded', loaded: search.loaded };
        });
        const calls = message.toolCalls.map((call): CallView => {
          shown.add(call.id);
          const outcome = outcomes.get(call.id);
          const card = cards[call.id];
          if (outcome) return fromOutcome(outcome, card);
          if (card) return fromCard(card);
          return {
            callId: call.id,
            name: call.name,
            args: call.args,
            // No outcome and nothing live: the turn ended before this call ran.
            state: live && !isTurnOver(live.state) ? 'awaiting_approval' : 'cancelled',
            ...(call.argsError !== undefined ? { argsError: call.argsError } : {}),
          };
        });
        const all = [...searches, ...calls];
        rows.push({ key: rowKey(`m${i}`, all), kind: 'assistant', text: message.text, calls: all, streaming: false });
        return;
      }
      case 'tool': {
        const orphans = message.results.filter((r) => !shown.has(r.callId));
        for (const r of orphans) shown.add(r.callId);
        const calls = orphans.map((r) => fromOutcome(r, cards[r.callId]));
        if (orphans.length > 0) rows.push({ key: rowKey(`m${i}`, calls), kind: 'assistant', text: '', calls, streaming: false });
        return;
      }
      default:
        return message satisfies never;
    }
  });

  if (live) {
    if (live.pendingUser !== undefined) rows.push({ key: `live-user`, kind: 'user', text: live.pendingUser });
    const streaming = !isTurnOver(live.state);
    let answered = false;
    live.segments.forEach((segment, j) => {
      const calls = segment.callIds.filter((id) => !shown.has(id) && liveCards[id]).map((id) => fromCard(liveCards[id]!));
      if (segment.text === '' && calls.length === 0) return;
      answered = true;
      rows.push({ key: rowKey(`live${j}`, calls), kind: 'assistant', text: segment.text, calls, streaming: streaming && j === live.segments.length - 1 });
    });
    // Sent, nothing back yet: a placeholder so the wait is visible.
    if (streaming && !answered) rows.push({ key: 'live-wait', kind: 'assistant', text: '', calls: [], streaming: true });
    if (live.state === 'failed') rows.push({ key: 'live-error', kind: 'status', tone: 'error', text: live.error ?? 'the turn failed', ...(live.diagnosis ? { diagnosis: live.diagnosis } : {}) });
    else if (live.state === 'cancelled') rows.push({ key: 'live-cancelled', kind: 'status', tone: 'info', text: 'Turn cancelled.' });
  } else if (lastError !== undefined) {
    rows.push({ key: 'last-error', kind: 'status', tone: 'error', text: lastError.text, ...(lastError.diagnosis ? { diagnosis: lastError.diagnosis } : {}) });
  } else if (unanswered(messages)) {
    // Derived from the stored conversation, so it outlives a reload and a restart; the reason itself is not stored.
    rows.push({ key: 'last-error', kind: 'status', tone: 'error', text: UNANSWERED });
  }
  return rows;
}

/** A stored conversation that ends without the model's answer: its last turn failed or was stopped. */
const unanswered = (messages: readonly ChatMessage[]): boolean => {
  const last = messages.at(-1)?.role;
  return last === 'user' || last === 'tool';
};
export const UNANSWERED = 'This has no answer yet: the turn ended before the model replied (why was shown then, and is not kept). Retry asks again.';

/** "1.2 s", "2 min 5 s": elapsed time on a tool card. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** 0..1 when the server sent a total, else undefined (an indeterminate bar). */
export function progressFraction(progress: { progress: number; total?: number } | undefined): number | undefined {
  if (!progress || progress.total === undefined || !(progress.total > 0)) return undefined;
  return Math.min(1, Math.max(0, progress.progress / progress.total));
}

const STATE_LABEL: Record<ToolCallState, string> = {
  awaiting_approval: 'Waiting for your approval',
  running: 'Running',
  succeeded: 'Done',
  failed: 'Failed',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

/** A tool card's state in words: a result the tool itself marked as an error says so. */
export function callStateLabel(call: Pick<CallView, 'state' | 'result'>): string {
  return call.state === 'failed' && call.result?.isError ? 'The tool reported an error' : STATE_LABEL[call.state];
}

/** Refused before it was sent (disabled, bad arguments, denied, unknown): the call never reached the server. */
const NEVER_SENT: ReadonlySet<AppError['code']> = new Set(['invalid_input', 'conflict', 'not_found', 'forbidden_sender']);

/** The heading of a run that ended without a result: "Not run" only when it never reached the server. */
export function failedRunHeading(error: Pick<AppError, 'code'>): string {
  return NEVER_SENT.has(error.code) ? 'Not run' : 'Failed';
}
