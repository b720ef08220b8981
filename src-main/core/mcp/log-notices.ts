/** A log's first new line is told at once; more within this window are told once at its end. */
export const LOG_NOTICE_WINDOW_MS = 200;

/**
 * Which servers' logs grew, for a Logs tab that follows without polling: the first line after a quiet spell is
 * told at once (a crash's stderr shows the moment it lands), a flood at most once per window per server, and
 * the listener reads the ring itself, so nothing is sent while no one has a log open.
 */
export class LogNotices {
  private readonly listeners = new Set<(server: string) => void>();
  /** Servers told within the current window, and whether more lines came since. */
  private readonly windows = new Map<string, { more: boolean }>();

  constructor(private readonly windowMs = LOG_NOTICE_WINDOW_MS) {}

  on(listener: (server: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A line (or part of one) was added to this server's log. */
  grew(server: string): void {
    if (this.listeners.size === 0) return;
    const open = this.windows.get(server);
    if (open) {
      open.more = true;
      return;
    }
    this.tell(server);
  }

  private tell(server: string): void {
    const window = { more: false };
    this.windows.set(server, window);
    for (const listener of this.listeners) listener(server);
    setTimeout(() => {
      this.windows.delete(server);
      if (window.more) this.tell(server);
    }, this.windowMs).unref?.();
  }
}
