import type { AppError, Result } from '../../../src-preload/contract';
import type { AttachmentInput, Conversation, ConversationSummary, ToolCallCard } from '../../../src-preload/contract/chat';
import type { ChatApi } from './chat-api';
import { buildRows, emptyTurn, isTurnOver, withCard, withDelta, withState, type ChatRow, type LiveTurn, type TurnFailure } from './chat-rows';

/** Conversations, the open one, and every turn streaming now (keyed by conversation, so switching mid-turn loses nothing). */
export class ChatStore {
  conversations = $state.raw<ConversationSummary[]>([]);
  current = $state.raw<Conversation | undefined>(undefined);
  /** The open conversation, or undefined for a new one not sent yet. */
  selectedId = $state<string | undefined>(undefined);
  live = $state.raw<Record<string, LiveTurn>>({});
  /** The last failed turn per conversation, kept after the live turn is gone. */
  turnErrors = $state.raw<Record<string, TurnFailure>>({});
  /** Cards of turns that ended, per conversation: what stored outcomes do not keep (why it ran, elapsed). */
  settledCards = $state.raw<Record<string, Record<string, ToolCallCard>>>({});
  /** A message being sent in a conversation that has no id yet. */
  unsentTurn = $state.raw<LiveTurn | undefined>(undefined);
  error = $state.raw<AppError | undefined>(undefined);
  sending = $state(false);

  readonly rows: ChatRow[] = $derived.by(() => {
    const id = this.selectedId;
    const live = id === undefined ? this.unsentTurn : this.live[id];
    const messages = id !== undefined && this.current?.id === id ? this.current.messages : [];
    return buildRows(messages, live, id === undefined ? undefined : this.turnErrors[id], id === undefined ? {} : this.settledCards[id]);
  });

  readonly busy: boolean = $derived.by(() => {
    if (this.selectedId === undefined) return this.sending;
    const live = this.live[this.selectedId];
    return this.sending || (live !== undefined && !isTurnOver(live.state));
  });

  private readonly unsubscribe: (() => void)[] = [];
  /** Turns that ended, so a reply to sendMessage that comes after its turn's end does not revive it. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- bookkeeping only; nothing renders from it
  private readonly endedTurns = new Set<string>();

  constructor(private readonly api: ChatApi) {
    this.unsubscribe.push(
      api.onChatDelta(({ conversationId, text }) => this.updateLive(conversationId, (turn) => withDelta(turn, text))),
      api.onToolCallUpdated((card) => this.updateLive(card.conversationId, (turn) => withCard(turn, card))),
      api.onChatTurnState(({ conversationId, state, error, diagnosis }) => {
        this.updateLive(conversationId, (turn) => withState(turn, state, error, diagnosis));
        if (isTurnOver(state)) void this.finishTurn(conversationId, state === 'failed' ? { text: error ?? 'the turn failed', ...(diagnosis ? { diagnosis } : {}) } : undefined);
      }),
    );
  }

  dispose(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }

  async loadList(): Promise<void> {
    const result = await this.api.listConversations({});
    if (this.check(result)) this.conversations = [...result.value].sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async open(id: string): Promise<void> {
    this.selectedId = id;
    this.error = undefined;
    const result = await this.api.getConversation({ id });
    if (this.selectedId === id && this.check(result)) this.current = result.value;
  }

  startNew(): void {
    this.selectedId = undefined;
    this.current = undefined;
    this.unsentTurn = undefined;
    this.error = undefined;
  }

  async send(text: string, attachments: AttachmentInput[] = []): Promise<boolean> {
    if ((text.trim() === '' && attachments.length === 0) || this.busy) return false;
    const target = this.selectedId;
    this.sending = true;
    this.error = undefined;
    if (target === undefined) this.unsentTurn = emptyTurn(text);
    else {
      this.endedTurns.delete(target);
      this.live = { ...this.live, [target]: emptyTurn(text) };
      const { [target]: _dropped, ...rest } = this.turnErrors;
      this.turnErrors = rest;
    }
    const message = { text, ...(attachments.length ? { attachments } : {}) };
    const result = await this.api.sendMessage(target === undefined ? message : { conversationId: target, ...message });
    this.sending = false;
    if (!result.ok) {
      this.error = result.error;
      if (target === undefined) this.unsentTurn = undefined;
      else this.dropLive(target);
      return false;
    }
    const id = result.value.conversationId;
    if (target === undefined && this.endedTurns.has(id)) {
      this.unsentTurn = undefined;
      if (this.selectedId === undefined) await this.open(id);
    } else if (target === undefined) {
      // Events may have arrived under the new id before the reply: merge what was buffered.
      const early = this.live[id];
      const unsent = this.unsentTurn ?? emptyTurn(text);
      this.live = { ...this.live, [id]: early ? { ...early, pendingUser: text } : unsent };
      this.unsentTurn = undefined;
      if (this.selectedId === undefined) {
        this.selectedId = id;
        this.current = { id, title: text.slice(0, 60), createdAt: Date.now(), updatedAt: Date.now(), messageCount: 0, messages: [] };
      }
    }
    void this.loadList();
    return true;
  }

  async rename(id: string, title: string): Promise<void> {
    const result = await this.api.renameConversation({ id, title });
    if (!this.check(result)) return;
    this.conversations = this.conversations.map((c) => (c.id === id ? result.value : c));
    if (this.current?.id === id) this.current = { ...this.current, title: result.value.title };
  }

  async remove(id: string): Promise<void> {
    const result = await this.api.deleteConversation({ id });
    if (!this.check(result)) return;
    this.conversations = this.conversations.filter((c) => c.id !== id);
    this.dropLive(id);
    if (this.selectedId === id) this.startNew();
  }

  /** The open conversation's failed turn once more, as stored (its Retry button). */
  async retry(): Promise<void> {
    const target = this.selectedId;
    if (target === undefined || this.busy) return;
    this.error = undefined;
    this.endedTurns.delete(target);
    const { [target]: _dropped, ...rest } = this.turnErrors;
    this.turnErrors = rest;
    this.live = { ...this.live, [target]: emptyTurn() };
    const result = await this.api.retryTurn({ conversationId: target });
    if (!this.check(result)) this.dropLive(target);
  }

  async cancelTurn(): Promise<void> {
    if (this.selectedId === undefined) return;
    this.check(await this.api.cancelTurn({ conversationId: this.selectedId }));
  }

  async cancelToolCall(callId: string): Promise<void> {
    if (this.selectedId === undefined) return;
    this.check(await this.api.cancelToolCall({ conversationId: this.selectedId, callId }));
  }

  private updateLive(conversationId: string, change: (turn: LiveTurn) => LiveTurn): void {
    this.live = { ...this.live, [conversationId]: change(this.live[conversationId] ?? emptyTurn()) };
  }

  private dropLive(conversationId: string): void {
    const { [conversationId]: _dropped, ...rest } = this.live;
    this.live = rest;
  }

  /** The stored conversation is the truth once a turn ends: reload it, then let the live copy go. */
  private async finishTurn(conversationId: string, failure: TurnFailure | undefined): Promise<void> {
    this.endedTurns.add(conversationId);
    if (failure !== undefined) this.turnErrors = { ...this.turnErrors, [conversationId]: failure };
    if (this.selectedId === conversationId) {
      const result = await this.api.getConversation({ id: conversationId });
      if (result.ok && this.selectedId === conversationId) this.current = result.value;
    }
    const live = this.live[conversationId];
    if (live && isTurnOver(live.state)) {
      this.settledCards = { ...this.settledCards, [conversationId]: { ...this.settledCards[conversationId], ...live.cards } };
      this.dropLive(conversationId);
    }
    void this.loadList();
  }

  private check<T>(result: Result<T>): result is { ok: true; value: T } {
    if (!result.ok) this.error = result.error;
    return result.ok;
  }
}
