import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SANDBOX_APP_CONSOLE_ERROR, SANDBOX_APP_ERROR } from '../../../src-preload/contract/values';
import type { FloodGuard } from './flood-guard';

export interface TransportWatch {
  /** The app sent more than the guard admits; the transport has stopped listening. */
  onFlood(): void;
  /** The proxy reported the app broke its page. */
  onSandboxError(reason: string): void;
  /** The proxy passed on the app's first console error (the app's own words). */
  onConsoleError(text: string): void;
}

/**
 * The app bridge's PostMessageTransport with a guard in front (SECURITY U5): every message from the
 * frame, well-formed or not, counts against the flood limit before anything parses or handles it,
 * and the proxy's own notices (a broken page, the app's console error) are taken out of the app's stream.
 */
export class GuardedTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onerror?: Transport['onerror'];
  onclose?: Transport['onclose'];
  private stopped = false;

  constructor(
    private readonly inner: Transport,
    private readonly guard: FloodGuard,
    private readonly watch: TransportWatch,
  ) {}

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (!this.pass()) return;
      const method = (message as { method?: unknown }).method;
      if (method === SANDBOX_APP_CONSOLE_ERROR) {
        const text = (message as { params?: { text?: unknown } }).params?.text;
        if (typeof text === 'string') this.watch.onConsoleError(text);
        return;
      }
      if (method === SANDBOX_APP_ERROR) {
        const reason = (message as { params?: { reason?: unknown } }).params?.reason;
        this.watch.onSandboxError(typeof reason === 'string' ? reason : 'the app broke its page');
        return;
      }
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => {
      if (this.pass()) this.onerror?.(error);
    };
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  private pass(): boolean {
    if (this.stopped) return false;
    if (this.guard.admit()) return true;
    this.stopped = true;
    void this.inner.close();
    this.watch.onFlood();
    return false;
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    this.stopped = true;
    return this.inner.close();
  }
}
