/** How long a success note stays: long enough to read, short enough not to linger over the next task. */
export const FLEETING_MS = 8000;

/**
 * A success note that clears itself (issue 23 item 10: success banners never cleared). Errors are not
 * fleeting: they stay until the next attempt.
 */
export class FleetingNote {
  text = $state<string | undefined>(undefined);
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ms: number = FLEETING_MS) {}

  show(text: string): void {
    this.text = text;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.text = undefined), this.ms);
  }

  clear(): void {
    clearTimeout(this.timer);
    this.text = undefined;
  }
}
