/**
 * A tool call's cancel switch: the chat's Stop, the tools panel's Cancel and a call's hard maximum
 * abort it, and the SDK's request() listens to it (RequestOptions.signal), so the server hears
 * notifications/cancelled. It is not a DOM AbortSignal, for the call path's cost (bench/README.md,
 * "Why the call path is shaped as it is"). The SDK 1.x request() reads only `aborted`, `reason`,
 * `throwIfAborted()` and `addEventListener('abort')`; test/integration/mcp/call-cancel.test.ts holds
 * it to that against a real server.
 */

/** What listens for a cancel: a CallCancel's signal, or a real AbortSignal (the broker and task calls take either). */
export interface CancelSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/** What a caller hands the call path to cancel one call: a CallCancel, or an AbortController. */
export interface Canceller {
  readonly signal: CancelSignal;
  abort(reason?: unknown): void;
}

export class CallCancel implements Canceller, CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  /** Itself: the switch and what listens to it are one object (one allocation a call). */
  get signal(): CancelSignal {
    return this;
  }

  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError');
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** Every listener is called once, as `{ once: true }` would: a switch is only ever thrown once. */
  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.aborted) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const at = this.listeners.indexOf(listener);
    if (at >= 0) this.listeners.splice(at, 1);
  }
}

/** The signal as the SDK's RequestOptions types it (its request() uses only what CancelSignal has). */
export function requestSignal(signal: CancelSignal): AbortSignal {
  return signal as AbortSignal;
}
