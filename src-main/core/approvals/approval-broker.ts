/**
 * Parks every call that needs a person until the person decides (SECURITY A1, A5). Main keeps
 * its own copy of what will run; the renderer only answers {id, decision, ...}. An answer for an
 * unknown id, or for one already settled, is refused; edited arguments must pass the tool's schema.
 */
import { randomUUID } from 'node:crypto';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import {
  elicitationDecisions,
  samplingDecisions,
  toolDecisions,
  type ApprovalDecision,
  type ApprovalRequest,
  type ApprovalSettled,
  type ElicitationApprovalRequest,
  type SamplingApprovalRequest,
  type SamplingResultApprovalRequest,
  type SamplingMessageView,
  type ToolCallApprovalRequest,
} from '../../../src-preload/contract/chat';
import { schemaDefaults } from '../../../src-preload/contract/values';
import { AppFailure } from '../app-error';
import type { CancelSignal } from '../mcp/call-cancel';
import { schemaValidator } from '../mcp/schema-validator';
import type { CallOrigin, CatalogTool } from '../../../src-preload/contract/tools';
import { systemClock, type Clock } from '../ports';
import { checkArguments } from '../tools/tool-arguments';
import { approvalsLockedNow } from '../policy/approval-locks';
import { SET_BY_ORGANIZATION } from '../policy/policy-rules';
import { decide, type PolicySettings, type PolicyVerdict } from './approval-policy';
import type { ApprovalStore } from './approval-store';
import { flagToolDefinition } from './description-flags';
import { diffDefinitions, toolDefinition } from './tool-fingerprint';

export interface ApprovalAnswer {
  id: string;
  decision: ApprovalDecision;
  editedArgs?: Record<string, unknown>;
  content?: Record<string, unknown>;
  editedMessages?: SamplingMessageView[];
  editedText?: string;
  reason?: string;
}

export type BrokerEvent = { name: 'approvalRequested'; payload: ApprovalRequest } | { name: 'approvalSettled'; payload: ApprovalSettled };

export type ToolCallVerdict =
  | { kind: 'run'; args: Record<string, unknown>; by: 'user' | 'policy'; because: string }
  | { kind: 'deny'; by: 'user' | 'policy'; because: string; reason?: string }
  | { kind: 'cancelled' };
/** A verdict the policy reaches alone, with no one asked. */
export type PolicyDecision = Extract<ToolCallVerdict, { kind: 'run' | 'deny' }>;
/** The policy's word when a person must answer: why, and what they approved before (if anything). */
export type PolicyAsk = Extract<PolicyVerdict, { kind: 'ask' }>;

export type ElicitationVerdict = { action: 'accept'; content?: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };
export type SamplingVerdict = { kind: 'approve'; messages: SamplingMessageView[] } | { kind: 'decline'; reason?: string } | { kind: 'timed_out' } | { kind: 'cancelled' };
export type SamplingResultVerdict = { kind: 'approve'; text: string; edited: boolean } | { kind: 'decline'; reason?: string } | { kind: 'timed_out' } | { kind: 'cancelled' };

export interface ToolCallInput {
  tool: CatalogTool;
  args: Record<string, unknown>;
  /** The current catalog, read only if the person answers "always allow this server", to vouch for its tools as they are. */
  catalog: () => CatalogTool[];
  signal: CancelSignal;
  /** Who asked: the dialog says so (an app's request reads differently from the model's). */
  origin: CallOrigin;
  conversationId?: string;
  callId?: string;
  /** The policy's ask, when the caller already has it (policyDecision): the policy is not run twice. */
  ask?: PolicyAsk;
}

type ElicitationInput = { server: string; message: string; timeoutMs: number; signal?: AbortSignal } & (
  | { mode: 'form'; requestedSchema: Record<string, unknown> }
  | { mode: 'url'; url: string; urlCheck: { ok: true } | { ok: false; reason: string } }
);

interface SamplingInput {
  server: string;
  messages: SamplingMessageView[];
  systemPrompt?: string;
  maxTokens: number;
  omittedParts: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

interface SamplingResultInput {
  server: string;
  text: string;
  model: string;
  stopReason: SamplingResultApprovalRequest['stopReason'];
  timeoutMs: number;
  signal?: AbortSignal;
}

type Pending =
  | { kind: 'tool_call'; request: ToolCallApprovalRequest; tool: CatalogTool; catalog: () => CatalogTool[]; args: Record<string, unknown>; resolve: (v: ToolCallVerdict) => void }
  | { kind: 'elicitation'; request: ElicitationApprovalRequest; resolve: (v: ElicitationVerdict) => void }
  | { kind: 'sampling'; request: SamplingApprovalRequest; resolve: (v: SamplingVerdict) => void }
  | { kind: 'sampling_result'; request: SamplingResultApprovalRequest; resolve: (v: SamplingResultVerdict) => void };

export interface BrokerDeps {
  store: ApprovalStore;
  settings: () => PolicySettings;
  emit: (event: BrokerEvent) => void;
  clock?: Clock;
  newId?: () => string;
  /** Whether the administrator's policy forbids running without asking (SECURITY X2); read fresh each call by default. */
  approvalsLocked?: () => boolean;
}

const SETTLED_MEMORY = 1000;

export class ApprovalBroker {
  private readonly pending = new Map<string, Pending & { cleanup: () => void }>();
  private readonly settled = new Set<string>();
  private readonly clock: Clock;
  private readonly newId: () => string;
  private readonly locked: () => boolean;

  constructor(private readonly deps: BrokerDeps) {
    this.clock = deps.clock ?? systemClock;
    this.newId = deps.newId ?? randomUUID;
    this.locked = deps.approvalsLocked ?? approvalsLockedNow;
  }

  pendingRequests(): ApprovalRequest[] {
    return [...this.pending.values()].map((p) => p.request);
  }

  /** What the policy says of a tool right now (rules, grants, annotations, the server's setting), without asking anyone. */
  policyVerdict(tool: CatalogTool): PolicyVerdict {
    const verdict = decide(tool, this.deps.store.lookup(tool), this.deps.settings());
    // An administrator's "always ask" wins over every grant, rule and server setting (SECURITY X2): the call asks anyway.
    if (verdict.kind === 'allow' && this.locked()) return { kind: 'ask', reason: 'default', because: `every tool call asks (${SET_BY_ORGANIZATION}); ${verdict.because} does not apply` };
    return verdict;
  }

  /** The policy's own answer when it needs nobody (run or deny), or what to ask the person (requestToolCall's `ask`). */
  policyDecision(tool: CatalogTool, args: Record<string, unknown>): PolicyDecision | PolicyAsk {
    const verdict = this.policyVerdict(tool);
    return verdict.kind === 'ask' ? verdict : settledByPolicy(verdict, args);
  }

  /** Policy first; when it says ask, the call waits here for the user's answer or the signal. */
  async requestToolCall(input: ToolCallInput): Promise<ToolCallVerdict> {
    const { tool } = input;
    const verdict = input.ask ?? this.policyVerdict(tool);
    if (verdict.kind !== 'ask') return settledByPolicy(verdict, input.args);
    const request: ToolCallApprovalRequest = {
      kind: 'tool_call',
      id: this.newId(),
      ...(input.conversationId !== undefined ? { conversationId: input.conversationId } : {}),
      ...(input.callId !== undefined ? { callId: input.callId } : {}),
      server: tool.server,
      tool: tool.name,
      name: tool.qualifiedName,
      origin: input.origin,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
      annotations: { ...tool.annotations },
      args: structuredClone(input.args),
      flags: flagToolDefinition(tool),
      askReason: verdict.reason,
      because: verdict.because,
      changes: verdict.approved ? diffDefinitions(verdict.approved, toolDefinition(tool)) : [],
      canAlwaysAllow: verdict.reason !== 'destructive' && !this.locked(),
      requestedAt: this.clock.now(),
    };
    return this.park<ToolCallVerdict>(
      (resolve) => ({ kind: 'tool_call', request, tool, catalog: input.catalog, args: structuredClone(input.args), resolve }),
      { signal: input.signal, onAbort: { kind: 'cancelled' } },
    );
  }

  requestElicitation(input: ElicitationInput): Promise<ElicitationVerdict> {
    const base = { kind: 'elicitation' as const, id: this.newId(), server: input.server, message: input.message, timeoutMs: input.timeoutMs, requestedAt: this.clock.now() };
    const flags = flagToolDefinition({ description: input.message, inputSchema: input.mode === 'form' ? input.requestedSchema : {} });
    const request: ElicitationApprovalRequest =
      input.mode === 'form'
        ? { ...base, mode: 'form', requestedSchema: input.requestedSchema, defaults: schemaDefaults(input.requestedSchema), flags }
        : { ...base, mode: 'url', url: input.url, urlCheck: input.urlCheck, flags };
    return this.park<ElicitationVerdict>((resolve) => ({ kind: 'elicitation', request, resolve }), {
      signal: input.signal,
      onAbort: { action: 'cancel' },
      timeout: { ms: input.timeoutMs, value: { action: 'cancel' } },
    });
  }

  requestSampling(input: SamplingInput): Promise<SamplingVerdict> {
    const request: SamplingApprovalRequest = {
      kind: 'sampling',
      id: this.newId(),
      server: input.server,
      messages: input.messages.map((m) => ({ ...m })),
      ...(input.systemPrompt !== undefined ? { systemPrompt: input.systemPrompt } : {}),
      maxTokens: input.maxTokens,
      omittedParts: input.omittedParts,
      flags: flagToolDefinition({ description: [input.systemPrompt ?? '', ...input.messages.map((m) => m.text)].join('\n'), inputSchema: {} }),
      timeoutMs: input.timeoutMs,
      requestedAt: this.clock.now(),
    };
    return this.park<SamplingVerdict>((resolve) => ({ kind: 'sampling', request, resolve }), {
      signal: input.signal,
      onAbort: { kind: 'cancelled' },
      timeout: { ms: input.timeoutMs, value: { kind: 'timed_out' } },
    });
  }

  /** The model's completion, shown before it goes back to the server; the person may edit or withhold it (A5). */
  requestSamplingResult(input: SamplingResultInput): Promise<SamplingResultVerdict> {
    const request: SamplingResultApprovalRequest = {
      kind: 'sampling_result',
      id: this.newId(),
      server: input.server,
      text: input.text,
      model: input.model,
      stopReason: input.stopReason,
      flags: flagToolDefinition({ description: input.text, inputSchema: {} }),
      timeoutMs: input.timeoutMs,
      requestedAt: this.clock.now(),
    };
    return this.park<SamplingResultVerdict>((resolve) => ({ kind: 'sampling_result', request, resolve }), {
      signal: input.signal,
      onAbort: { kind: 'cancelled' },
      timeout: { ms: input.timeoutMs, value: { kind: 'timed_out' } },
    });
  }

  /** Cancel every request parked for a conversation (the user cancelled the turn). */
  cancelConversation(conversationId: string): void {
    for (const [id, p] of this.pending) {
      if (p.kind === 'tool_call' && p.request.conversationId === conversationId) this.settle(id, 'cancelled', () => p.resolve({ kind: 'cancelled' }));
    }
  }

  /** The renderer's answer. Throws AppFailure with the exact reason when it is refused. */
  async answer(answer: ApprovalAnswer): Promise<void> {
    const p = this.pending.get(answer.id);
    if (!p) {
      if (this.settled.has(answer.id)) throw new AppFailure('conflict', `approval "${answer.id}" was already answered`);
      throw new AppFailure('not_found', `no pending approval with id "${answer.id}"`);
    }
    switch (p.kind) {
      case 'tool_call':
        return this.answerToolCall(p, answer);
      case 'elicitation':
        return this.answerElicitation(p, answer);
      case 'sampling':
        return this.answerSampling(p, answer);
      case 'sampling_result':
        return this.answerSamplingResult(p, answer);
      default:
        return p satisfies never;
    }
  }

  private async answerToolCall(p: Extract<Pending, { kind: 'tool_call' }>, answer: ApprovalAnswer): Promise<void> {
    const decision = oneOf(answer.decision, toolDecisions, 'a tool call');
    if (decision === 'deny') {
      const reason = answer.reason?.trim();
      return this.settle(answer.id, decision, () => p.resolve({ kind: 'deny', by: 'user', because: 'you denied it', ...(reason ? { reason } : {}) }));
    }
    if (decision !== 'allow_once' && this.locked()) {
      throw new AppFailure('invalid_input', `every tool call asks (${SET_BY_ORGANIZATION}); answer allow_once or deny`);
    }
    if (decision !== 'allow_once' && !p.request.canAlwaysAllow) {
      throw new AppFailure('invalid_input', `"${p.tool.qualifiedName}" is marked destructive and asks every time; answer allow_once or deny`);
    }
    let args = p.args;
    if (answer.editedArgs !== undefined) {
      checkArguments(p.tool, answer.editedArgs, editedArguments);
      args = structuredClone(answer.editedArgs);
    }
    // Settle before the grant is written so a second answer cannot slip in while we await the disk.
    this.settle(answer.id, decision, () => p.resolve({ kind: 'run', args, by: 'user', because: describeAllow(decision, p.tool) }));
    if (decision === 'always_allow_tool') await this.deps.store.grantTool(p.tool);
    if (decision === 'always_allow_server') await this.deps.store.grantServer(p.tool, p.catalog());
  }

  private answerElicitation(p: Extract<Pending, { kind: 'elicitation' }>, answer: ApprovalAnswer): void {
    const decision = oneOf(answer.decision, elicitationDecisions, 'an elicitation');
    if (decision !== 'accept') return this.settle(answer.id, decision, () => p.resolve({ action: decision }));
    const { request } = p;
    if (request.mode === 'url') {
      if (!request.urlCheck.ok) throw new AppFailure('invalid_input', `the URL in this request was refused (${request.urlCheck.reason}); answer decline or cancel`);
      return this.settle(answer.id, decision, () => p.resolve({ action: 'accept' }));
    }
    const content = { ...request.defaults, ...(answer.content ?? {}) };
    // Elicitation answers are checked against the schema the server sent.
    const check = schemaValidator.getValidator(request.requestedSchema as JsonSchemaType)(content);
    if (!check.valid) throw new AppFailure('invalid_input', `the form answer does not match what "${request.server}" asked for: ${check.errorMessage}`);
    this.settle(answer.id, decision, () => p.resolve({ action: 'accept', content }));
  }

  private answerSampling(p: Extract<Pending, { kind: 'sampling' }>, answer: ApprovalAnswer): void {
    const decision = oneOf(answer.decision, samplingDecisions, 'a sampling request');
    if (decision === 'decline') {
      const reason = answer.reason?.trim();
      return this.settle(answer.id, decision, () => p.resolve({ kind: 'decline', ...(reason ? { reason } : {}) }));
    }
    const messages = answer.editedMessages ?? p.request.messages;
    if (messages.length === 0) throw new AppFailure('invalid_input', 'a sampling request needs at least one message to send');
    this.settle(answer.id, decision, () => p.resolve({ kind: 'approve', messages: messages.map((m) => ({ ...m })) }));
  }

  private answerSamplingResult(p: Extract<Pending, { kind: 'sampling_result' }>, answer: ApprovalAnswer): void {
    const decision = oneOf(answer.decision, samplingDecisions, 'a sampling completion');
    if (decision === 'decline') {
      const reason = answer.reason?.trim();
      return this.settle(answer.id, decision, () => p.resolve({ kind: 'decline', ...(reason ? { reason } : {}) }));
    }
    const text = answer.editedText ?? p.request.text;
    this.settle(answer.id, decision, () => p.resolve({ kind: 'approve', text, edited: text !== p.request.text }));
  }

  private park<V>(
    make: (resolve: (v: V) => void) => Pending,
    options: { signal?: CancelSignal | undefined; onAbort: V; timeout?: { ms: number; value: V } },
  ): Promise<V> {
    return new Promise<V>((resolve) => {
      const entry = make(resolve);
      const id = entry.request.id;
      if (options.signal?.aborted) return resolve(options.onAbort);
      const onAbort = () => this.settle(id, 'cancelled', () => resolve(options.onAbort));
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const timer = options.timeout ? setTimeout(() => this.settle(id, 'timed_out', () => resolve(options.timeout!.value)), options.timeout.ms) : undefined;
      const cleanup = () => {
        options.signal?.removeEventListener('abort', onAbort);
        if (timer) clearTimeout(timer);
      };
      this.pending.set(id, { ...entry, cleanup } as Pending & { cleanup: () => void });
      this.deps.emit({ name: 'approvalRequested', payload: entry.request });
    });
  }

  private settle(id: string, outcome: ApprovalSettled['outcome'], resolve: () => void): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    entry.cleanup();
    this.pending.delete(id);
    this.settled.add(id);
    if (this.settled.size > SETTLED_MEMORY) this.settled.delete(this.settled.values().next().value!);
    resolve();
    this.deps.emit({ name: 'approvalSettled', payload: { id, outcome } });
  }
}

function oneOf<T extends string>(decision: ApprovalDecision, allowed: readonly T[], what: string): T {
  if ((allowed as readonly string[]).includes(decision)) return decision as T;
  throw new AppFailure('invalid_input', `decision "${decision}" does not apply to ${what} (expected ${allowed.join(', ')})`);
}

function describeAllow(decision: Exclude<(typeof toolDecisions)[number], 'deny'>, tool: CatalogTool): string {
  switch (decision) {
    case 'allow_once':
      return 'you allowed it once';
    case 'always_allow_tool':
      return 'you always allow this tool';
    case 'always_allow_server':
      return `you always allow the server "${tool.server}"`;
    default:
      return decision satisfies never;
  }
}

/** Decided on the spot: nobody could change the arguments between asking and running, so no copy. */
function settledByPolicy(verdict: Exclude<PolicyVerdict, { kind: 'ask' }>, args: Record<string, unknown>): PolicyDecision {
  return verdict.kind === 'allow' ? { kind: 'run', args, by: 'policy', because: verdict.because } : { kind: 'deny', by: 'policy', because: verdict.because };
}

const editedArguments = (tool: CatalogTool) => `edited arguments for "${tool.qualifiedName}"`;
