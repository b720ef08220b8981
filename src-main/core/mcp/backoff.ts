import type { Clock } from '../ports';

export interface BackoffPolicy {
  /** First retry delay; doubles per crash in the window. */
  baseMs: number;
  maxMs: number;
  /** This many crashes within windowMs is a crash loop: stop retrying. */
  crashLimit: number;
  windowMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 60_000, crashLimit: 5, windowMs: 120_000 };

export type CrashDecision = { kind: 'retry'; delayMs: number } | { kind: 'give_up'; reason: string };

/** Counts one server's crashes and says when to retry (capped exponential) or that it is a crash loop. */
export class CrashTracker {
  private crashes: number[] = [];

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly clock: Clock,
  ) {}

  /**
   * `giveUp: false` for a remote server: it being unreachable is not a broken command respawning, so it is
   * retried for as long as it takes, at the capped delay, and picked up when it is back.
   */
  recordCrash(options: { giveUp: boolean } = { giveUp: true }): CrashDecision {
    const now = this.clock.now();
    this.crashes = this.crashes.filter((at) => now - at < this.policy.windowMs);
    this.crashes.push(now);
    const count = this.crashes.length;
    if (options.giveUp && count >= this.policy.crashLimit) {
      return { kind: 'give_up', reason: `crashed ${count} times in ${formatDuration(this.policy.windowMs)}; stopped retrying — reconnect by hand` };
    }
    return { kind: 'retry', delayMs: Math.min(this.policy.maxMs, this.policy.baseMs * 2 ** (count - 1)) };
  }

  reset(): void {
    this.crashes = [];
  }
}

/** "2 minutes", "90 s", "1 minute". */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) {
    const minutes = ms / 60_000;
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
