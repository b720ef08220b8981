import type { Api, Result } from '../../../src-preload/contract';
import type { RequestId, ServerMessage } from '../../../src-preload/ws-messages';

/**
 * The Api over web mode's WebSocket (the host is src-main/host/web-host.ts). Written against
 * the standard WebSocket API only, so it runs in a browser and, with the `ws` package, in Node.
 * Only types come from the contract: the named functions are built by a Proxy, so the renderer
 * bundle carries no schemas.
 */
export type ConnectionState = 'connecting' | 'open' | 'closed';

export interface ApiConnection {
  readonly state: ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
}

export interface WsApi extends ApiConnection {
  readonly api: Api;
  /** Stop for good: no more reconnects, and unanswered calls resolve as unavailable. */
  close(): void;
}

export interface WsApiOptions {
  /** e.g. ws://127.0.0.1:4123/ws */
  url: string;
  /** Defaults to the global WebSocket. */
  WebSocket?: typeof WebSocket;
  /** Waits before each reconnect attempt, in ms; the last one repeats (the cap). */
  backoffMs?: readonly number[];
}

export const DEFAULT_BACKOFF_MS = [250, 500, 1000, 2000, 5000] as const;

export const LOST_CONNECTION: Result<never> = {
  ok: false,
  error: { code: 'unavailable', message: 'lost connection to Switchboard' },
};


interface PendingCall {
  frame: string;
  sent: boolean;
  resolve: (result: Result<unknown>) => void;
}

export function createWsApi(options: WsApiOptions): WsApi {
  const SocketClass = options.WebSocket ?? globalThis.WebSocket;
  const backoff = options.backoffMs ?? DEFAULT_BACKOFF_MS;
  const pending = new Map<RequestId, PendingCall>();
  const eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let state: ConnectionState = 'connecting';
  let socket: WebSocket | undefined;
  let nextId = 1;
  let failedAttempts = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let disposed = false;

  const setState = (next: ConnectionState) => {
    if (next === state) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  };

  const flush = () => {
    for (const call of pending.values()) {
      if (call.sent || socket?.readyState !== SocketClass.OPEN) continue;
      socket.send(call.frame);
      call.sent = true;
    }
  };

  const failPending = () => {
    const calls = [...pending.values()];
    pending.clear();
    for (const call of calls) call.resolve(LOST_CONNECTION);
  };

  const onMessage = (data: unknown) => {
    if (typeof data !== 'string') return;
    let message: ServerMessage;
    try {
      message = JSON.parse(data) as ServerMessage;
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    switch (message.type) {
      case 'result':
      case 'error': {
        const call = message.id === undefined ? undefined : pending.get(message.id);
        if (!call) {
          if (message.type === 'error') console.warn(`Switchboard refused a message: ${message.message}`);
          return;
        }
        pending.delete(message.id!);
        call.resolve(message.type === 'result' ? message.result : { ok: false, error: { code: 'invalid_input', message: message.message } });
        return;
      }
      case 'event':
        for (const listener of [...(eventListeners.get(message.name) ?? [])]) {
          try {
            listener(message.payload);
          } catch (error) {
            console.error(`a ${message.name} listener failed`, error);
          }
        }
        return;
    }
  };

  const connect = () => {
    reconnectTimer = undefined;
    setState('connecting');
    let current: WebSocket;
    try {
      current = new SocketClass(options.url);
    } catch (error) {
      console.error(`cannot open ${options.url}`, error);
      return onClosed();
    }
    socket = current;
    current.onopen = () => {
      failedAttempts = 0;
      setState('open');
      flush();
    };
    current.onmessage = (event) => onMessage(event.data);
    current.onclose = () => {
      if (socket === current) onClosed();
    };
    // An error is always followed by close, where the work happens.
    current.onerror = () => {};
  };

  const onClosed = () => {
    socket = undefined;
    setState('closed');
    failPending();
    if (disposed) return;
    const delay = backoff[Math.min(failedAttempts, backoff.length - 1)] ?? 1000;
    failedAttempts++;
    reconnectTimer = setTimeout(connect, delay);
  };

  const invoke = (method: string, payload: unknown): Promise<Result<unknown>> => {
    if (state === 'closed') return Promise.resolve(LOST_CONNECTION);
    return new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, { frame: JSON.stringify({ type: 'invoke', id, method, payload }), sent: false, resolve });
      flush();
    });
  };

  const subscribe = (name: string, listener: (payload: unknown) => void): (() => void) => {
    const listeners = eventListeners.get(name) ?? new Set();
    eventListeners.set(name, listeners);
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  const functions = new Map<string, unknown>();
  const api = new Proxy({} as Api, {
    get(_target, property) {
      // Not an Api member: symbols, and `then` so that awaiting the Api never sends a call.
      if (typeof property !== 'string' || property === 'then') return undefined;
      let fn = functions.get(property);
      if (fn === undefined) {
        const event = eventOfSubscriber(property);
        fn = event === undefined
          ? (payload: unknown) => invoke(property, payload)
          : (listener: (payload: unknown) => void) => subscribe(event, listener);
        functions.set(property, fn);
      }
      return fn;
    },
  });

  connect();

  return {
    api,
    get state() {
      return state;
    },
    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    close() {
      disposed = true;
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer);
      const current = socket;
      socket = undefined;
      current?.close(1000, 'closed by the app');
      setState('closed');
      failPending();
    },
  };
}

/** onServersChanged -> serversChanged; any other name is an invoke. */
export function eventOfSubscriber(property: string): string | undefined {
  const match = /^on([A-Z])(.*)$/.exec(property);
  return match ? `${match[1]!.toLowerCase()}${match[2]}` : undefined;
}
