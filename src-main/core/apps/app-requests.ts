import { APP_PENDING_LIMIT } from '../../../src-preload/contract/values';
import { AppFailure } from '../app-error';
import { CallCancel } from '../mcp/call-cancel';

/** Why a frame's waiting requests were ended: the app is told which. */
export type EndReason = 'denied' | 'closed';

/**
 * The requests each app frame has waiting in main (SECURITY U7): tool calls parked for the person's
 * approval or running. At most APP_PENDING_LIMIT per frame, the next refused at once; all of a frame's
 * requests end together when the person denies them all or the frame goes (its card unmounts, its tab
 * or window closes), and a frame that went takes no new ones.
 */
export class AppRequests {
  private readonly open = new Map<string, { server: string; cancels: Set<CallCancel> }>();
  /** Frames that went, remembered (a bounded number) so a late request from one is refused, not parked. */
  private readonly closed = new Set<string>();

  /** Runs `call` for `frame` with a cancel switch that ends with the frame. */
  async run<T>(frame: string, server: string, call: (cancel: CallCancel) => Promise<T>): Promise<T> {
    if (this.closed.has(frame)) throw new AppFailure('conflict', `the app from ${server} was closed; its request was not sent`);
    const entry = this.open.get(frame) ?? { server, cancels: new Set<CallCancel>() };
    if (entry.cancels.size >= APP_PENDING_LIMIT) {
      throw new AppFailure('conflict', `the app from ${server} already has ${APP_PENDING_LIMIT} requests waiting; this one was refused (answer or deny those first)`);
    }
    const cancel = new CallCancel();
    entry.cancels.add(cancel);
    this.open.set(frame, entry);
    try {
      return await call(cancel);
    } finally {
      entry.cancels.delete(cancel);
      if (entry.cancels.size === 0 && this.open.get(frame) === entry) this.open.delete(frame);
    }
  }

  /** How many requests `frame` has waiting. */
  pending(frame: string): number {
    return this.open.get(frame)?.cancels.size ?? 0;
  }

  /**
   * Ends every request `frame` has waiting: approvals still open are withdrawn, running calls are
   * cancelled at the server. After 'closed' the frame is gone for good; after 'denied' it may ask again.
   */
  end(frame: string, reason: EndReason): number {
    if (reason === 'closed') {
      this.closed.add(frame);
      if (this.closed.size > 1000) this.closed.delete(this.closed.values().next().value!);
    }
    const entry = this.open.get(frame);
    this.open.delete(frame);
    const why = new AppFailure('conflict', reason === 'denied' ? 'the person denied every request of this app' : 'the app’s frame closed');
    for (const cancel of entry?.cancels ?? []) cancel.abort(why);
    return entry?.cancels.size ?? 0;
  }

  /** "Deny all from this app" in the approval dialog: every frame of that server's apps, denied (they may ask again). */
  denyServer(server: string): number {
    let ended = 0;
    for (const [frame, entry] of [...this.open]) if (entry.server === server) ended += this.end(frame, 'denied');
    return ended;
  }
}
