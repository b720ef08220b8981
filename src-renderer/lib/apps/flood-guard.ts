/**
 * Counts an app's messages in a sliding one-second window (SECURITY U5): past the limit the app is
 * flooding, and the host stops it rather than let its main thread drown in message events.
 */
export class FloodGuard {
  private stamps: number[] = [];
  private head = 0;

  constructor(
    readonly perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records one message; false once more than `perSecond` arrived within the last second. */
  admit(): boolean {
    const t = this.now();
    while (this.head < this.stamps.length && t - this.stamps[this.head]! >= 1000) this.head++;
    if (this.head > 1024) {
      this.stamps = this.stamps.slice(this.head);
      this.head = 0;
    }
    this.stamps.push(t);
    return this.stamps.length - this.head <= this.perSecond;
  }
}
