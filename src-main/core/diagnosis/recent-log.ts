import { LineRing } from '../mcp/line-ring';
import type { Logger } from '../ports';

/** The app's logger, keeping its last lines for the diagnostics bundle. Fields are logged as JSON on the same line. */
export class RecentLog implements Logger {
  private readonly ring = new LineRing(500);

  constructor(private readonly inner: Logger) {}

  info(message: string, fields?: Record<string, unknown>): void {
    this.keep('info', message, fields);
    this.inner.info(message, fields);
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.keep('warn', message, fields);
    this.inner.warn(message, fields);
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.keep('error', message, fields);
    this.inner.error(message, fields);
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
