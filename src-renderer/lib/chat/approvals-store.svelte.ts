import type { AppError } from '../../../src-preload/contract';
import type { ApprovalRequest } from '../../../src-preload/contract/chat';
import type { ChatApi } from './chat-api';

export type ApprovalAnswer = Parameters<ChatApi['answerApproval']>[0];

/** What each kind of approval view is given: its request, whether an answer is on its way, and where answers go. */
export interface ApprovalViewProps<R> {
  request: R;
  busy: boolean;
  onAnswer: (answer: ApprovalAnswer) => void;
}

/** Requests main is holding for the person, oldest first; the dialog shows the first. */
export class ApprovalsStore {
  pending = $state.raw<ApprovalRequest[]>([]);
  /** Why main refused the last answer (e.g. edited arguments that miss the schema); cleared by the next answer. */
  error = $state.raw<AppError | undefined>(undefined);
  answering = $state(false);

  /**
   * What Chat shows and counts (its sidebar badge, its dialog): not a run the person started in a
   * server's Tools panel, which that panel asks about beside the run.
   */
  readonly forChat: ApprovalRequest[] = $derived(this.pending.filter((r) => !(r.kind === 'tool_call' && r.origin === 'person')));
  /** The request Chat's dialog shows now. */
  readonly first: ApprovalRequest | undefined = $derived(this.forChat[0]);
  private readonly unsubscribe: (() => void)[] = [];

  constructor(private readonly api: ChatApi) {
    this.unsubscribe.push(
      api.onApprovalRequested((request) => {
        if (!this.pending.some((p) => p.id === request.id)) this.pending = [...this.pending, request];
      }),
      api.onApprovalSettled(({ id }) => this.drop(id)),
    );
  }

  dispose(): void {
    for (const stop of this.unsubscribe.splice(0)) stop();
  }

  /** Requests raised while the UI was away (a reload, a lost socket). */
  async load(): Promise<void> {
    const result = await this.api.listPendingApprovals({});
    if (!result.ok) {
      this.error = result.error;
      return;
    }
    const fresh = result.value;
    this.pending = [...fresh, ...this.pending.filter((p) => !fresh.some((r) => r.id === p.id))].sort((a, b) => a.requestedAt - b.requestedAt);
  }

  async answer(answer: ApprovalAnswer): Promise<boolean> {
    this.answering = true;
    this.error = undefined;
    const result = await this.api.answerApproval(answer);
    this.answering = false;
    if (!result.ok) {
      this.error = result.error;
      // Already answered elsewhere or gone: nothing left to decide here.
      if (result.error.code === 'not_found' || result.error.code === 'conflict') this.drop(answer.id);
      return false;
    }
    this.drop(answer.id);
    return true;
  }

  private drop(id: string): void {
    if (this.pending.some((p) => p.id === id)) this.pending = this.pending.filter((p) => p.id !== id);
  }
}
