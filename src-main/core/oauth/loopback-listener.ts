import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppFailure } from '../app-error';
import { terminal, transient } from '../diagnosis/diagnosis';
import type { Clock } from '../ports';
import { systemClock } from '../ports';

/** What the browser brought back on the redirect, once its state matched. */
export interface LoopbackCallback {
  code: string;
  iss?: string;
  /** Answer the waiting browser tab once the exchange is done. */
  reply(outcome: { ok: true } | { ok: false; message: string }): void;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
export const systemTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface LoopbackOptions {
  serverName: string;
  state: string;
  /** A port a registered client's redirect URI pins; taken when free, else the OS picks. */
  port?: number;
  timeoutMs?: number;
  stateLifetimeMs?: number;
  clock?: Clock;
  timers?: Timers;
}

export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
export const STATE_LIFETIME_MS = 10 * 60_000;
export const CALLBACK_PATH = '/callback';

export class SignInCancelledError extends AppFailure {
  constructor(server: string) {
    super('conflict', `sign-in to ${server} was cancelled`);
  }
}

const describeDuration = (ms: number): string => {
  const [amount, unit] = ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The OAuth redirect target (SECURITY O6, O7, T2): http://127.0.0.1:<port>/callback, bound to
 * 127.0.0.1 only and open only while one flow waits. GET on the exact path only; a callback
 * without the recorded state, or with another, is ignored (fail closed). The page never echoes
 * error_description, and carries no-store and a CSP that allows nothing.
 */
export class LoopbackListener {
  readonly result: Promise<LoopbackCallback>;
  private settle!: { resolve: (c: LoopbackCallback) => void; reject: (e: Error) => void };
  private done = false;
  private readonly timer: unknown;
  private readonly startedAt: number;

  private constructor(
    private readonly server: Server,
    private readonly options: LoopbackOptions,
  ) {
    this.result = new Promise<LoopbackCallback>((resolve, reject) => (this.settle = { resolve, reject }));
    this.result.catch(() => undefined);
    this.port = (server.address() as AddressInfo).port;
    this.startedAt = this.clock.now();
    const timeoutMs = options.timeoutMs ?? SIGN_IN_TIMEOUT_MS;
    this.timer = this.timers.setTimeout(() => {
      this.fail(new AppFailure('unavailable', `sign-in to ${options.serverName} timed out: no answer came back from the browser within ${describeDuration(timeoutMs)}; start the sign-in again`, transient(`start the sign-in again and finish it in the browser within ${describeDuration(timeoutMs)}`)));
    }, timeoutMs);
    server.on('request', (req, res) => this.handle(req, res));
  }

  static async open(options: LoopbackOptions): Promise<LoopbackListener> {
    // Loaded at the first sign-in: on Node 24, node:http brings undici, http2, tls and zlib (~12 MB resident).
    const { createServer } = await import('node:http');
    const server = createServer();
    const listen = (port: number) =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen({ host: '127.0.0.1', port, exclusive: true }, () => {
          server.off('error', reject);
          resolve();
        });
      });
    try {
      await listen(options.port ?? 0);
    } catch (error) {
      if (!options.port) throw error;
      await listen(0); // the pinned port is taken: the flow registers again for the new one
    }
    return new LoopbackListener(server, options);
  }

  /** Fixed when the socket opened, so it still reads after close. */
  readonly port: number;

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`;
  }

  cancel(): void {
    this.fail(new SignInCancelledError(this.options.serverName));
  }

  async close(): Promise<void> {
    this.timers.clearTimeout(this.timer);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private get clock(): Clock {
    return this.options.clock ?? systemClock;
  }

  private get timers(): Timers {
    return this.options.timers ?? systemTimers;
  }

  private fail(error: Error): void {
    if (this.done) return;
    this.done = true;
    this.settle.reject(error);
    void this.close();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.headers.host !== `127.0.0.1:${this.port}`) return this.page(res, 403, 'This address only answers Switchboard sign-ins.');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${this.port}`);
    if (url.pathname !== CALLBACK_PATH) return this.page(res, 404, 'Not found.');
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      return this.page(res, 405, 'Method not allowed.');
    }
    const state = url.searchParams.get('state');
    if (this.done || state === null || !this.stateMatches(state)) {
      // Not the sign-in we are waiting for: ignored, the flow keeps waiting.
      return this.page(res, 400, 'This sign-in answer does not belong to a sign-in Switchboard is waiting for.');
    }
    this.done = true;
    this.timers.clearTimeout(this.timer);
    const server = escapeHtml(this.options.serverName);
    const error = url.searchParams.get('error');
    const code = url.searchParams.get('code');
    if (error !== null || !code) {
      // The error code is a fixed OAuth vocabulary word; error_description is server text and never shown.
      const word = error && /^[a-z_]{1,64}$/.test(error) ? error : 'no authorization code';
      this.page(res, 400, `Sign-in to ${server} did not complete (${escapeHtml(word)}). You can close this tab.`);
      this.settle.reject(new AppFailure('unavailable', `sign-in to ${this.options.serverName} did not complete: the authorization server answered ${word}`, terminal(word === 'access_denied' ? 'approve the access in the browser, or sign in with an account that has access' : `check ${this.options.serverName}'s sign-in settings with its administrator, then sign in again`)));
      void this.close();
      return;
    }
    const iss = url.searchParams.get('iss') ?? undefined;
    this.settle.resolve({
      code,
      ...(iss !== undefined ? { iss } : {}),
      reply: (outcome) => {
        if (outcome.ok) this.page(res, 200, `Signed in to ${server} — you can close this tab.`);
        else this.page(res, 400, `Sign-in to ${server} failed: ${escapeHtml(outcome.message)}. You can close this tab.`);
        void this.close();
      },
    });
  }

  private stateMatches(received: string): boolean {
    if (this.clock.now() - this.startedAt > (this.options.stateLifetimeMs ?? STATE_LIFETIME_MS)) return false;
    const [a, b] = [Buffer.from(received), Buffer.from(this.options.state)];
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private page(res: ServerResponse, status: number, text: string): void {
    res.writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
    res.end(`<!doctype html><meta charset="utf-8"><title>Switchboard</title><p>${text}</p>\n`);
  }
}
