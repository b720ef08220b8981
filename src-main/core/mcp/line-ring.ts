/** The last N lines of a stream (stderr, log notifications), each capped so a flood costs bounded memory. */
export class LineRing {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly capacity = 200,
    private readonly maxLineChars = 4000,
    /** Told after every write or push: the Logs tab follows the ring without polling. */
    private readonly onGrow?: () => void,
  ) {}

  /** Append a chunk of a stream; complete lines are kept, a trailing partial line waits for the rest. */
  write(chunk: string): void {
    const text = this.partial + chunk;
    const parts = text.split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    if (this.partial.length > this.maxLineChars) {
      this.push(this.partial);
      this.partial = '';
    }
    for (const line of parts) this.append(line);
    this.onGrow?.();
  }

  /** Append one whole line (a log notification, a note from Switchboard). */
  push(line: string): void {
    this.append(line);
    this.onGrow?.();
  }

  private append(line: string): void {
    const capped = line.length > this.maxLineChars ? `${line.slice(0, this.maxLineChars)} … [${line.length - this.maxLineChars} more characters]` : line;
    this.lines.push(capped);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  snapshot(): string[] {
    return this.partial ? [...this.lines, this.partial].slice(-this.capacity) : [...this.lines];
  }

  clear(): void {
    this.lines.length = 0;
    this.partial = '';
  }
}
