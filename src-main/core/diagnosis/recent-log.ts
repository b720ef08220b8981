import { LineRing } from '../mcp/line-ring';
import type { Logger } from '../ports';
import type { Scrubber } from '../secrets/scrubber';

type Level = 'info' | 'warn' | 'error';

/**
 * The app's logger, keeping its last lines for the diagnostics bundle. Fields are logged as JSON on the same line.
 * The log's edge (SECURITY S7): every message and field is scrubbed before it is kept or reaches the sink.
 */
export class RecentLog implements Logger {
  private readonly ring = new LineRing(500);

  constructor(
    private readonly inner: Logger,
    private readonly scrubber: Scrubber,
  ) {}

  info(message: string, fields?: Record<string, unknown>): void {
    this.log('info', message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.log('warn', message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.log('error', message, fields);
  }

  private log(level: Level, message: string, fields: Record<string, unknown> | undefined): void {
    const text = this.scrubber.text(message);
    const scrubbed = fields && this.scrubber.fields(fields);
    this.keep(level, text, scrubbed);
    this.inner[level](text, scrubbed);
  }

  lines(): string[] {
    return this.ring.snapshot();
  }

  private keep(level: string, message: string, fields: Record<string, unknown> | undefined): void {
    const extra = fields && Object.keys(fields).length > 0 ? ` ${safeJson(fields)}` : '';
    this.ring.push(`${new Date().toISOString()} ${level} ${message}${extra}`);
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return '[fields not serializable]';
  }
}
