import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import NodeWebSocket from 'ws';
import type { Api, ServersSnapshot } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { startWebHost } from '../../../src-main/host/web-host';
import { createWsApi, eventOfSubscriber, LOST_CONNECTION, type ConnectionState, type WsApi } from '../../../src-renderer/lib/api/ws-client';
import { startFixture, type HostFixture } from './host-fixture';

/**
 * The `ws` package behaving as a browser's WebSocket: the standard constructor (url, protocols)
 * and an Origin header for the page's own origin, which browsers always send.
 */
class BrowserLikeWebSocket extends NodeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols, { origin: new URL(url).origin.replace(/^ws/, 'http') });
  }
}

/** A gate the test opens: serverLogs waits on it, so a call can be in flight when the socket drops. */
function gate() {
  let open!: () => void;
  let entered!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (entered = resolve));
  return { open, entered, opened, reached };
}

let fx: HostFixture;
const held = gate();
const clients: WsApi[] = [];
const previousWebSocket = globalThis.WebSocket;

beforeAll(async () => {
  // The client uses the global WebSocket by default, exactly as in the browser.
  globalThis.WebSocket = BrowserLikeWebSocket as unknown as typeof WebSocket;
  fx = await startFixture({
    wrapHandlers: (core) => ({
      ...core.handlers,
      serverLogs: async (input) => {
        held.entered();
        await held.opened;
        return core.handlers.serverLogs(input);
      },
    }),
  });
});
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});
afterAll(async () => {
  held.open();
  await fx?.cleanup();
  globalThis.WebSocket = previousWebSocket;
});

function client(options: { port?: number; token?: string } = {}): WsApi {
  const made = createWsApi({ url: `ws://127.0.0.1:${options.port ?? fx.host.port}/ws?token=${options.token ?? fx.host.token}`, backoffMs: [10, 20, 40] });
  clients.push(made);
  return made;
}

function stateReached(connection: WsApi, wanted: ConnectionState): Promise<void> {
  if (connection.state === wanted) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = connection.onStateChange((state) => {
      if (state !== wanted) return;
      stop();
      resolve();
    });
  });
}

describe('createWsApi against the real web host', () => {
  it('queues a call made while connecting and answers it with the core snapshot', async () => {
    const connection = client();
    expect(connection.state).toBe('connecting');
    const result = await connection.api.listServers({});
    expect(connection.state).toBe('open');
    expect(result).toEqual({ ok: true, value: fx.core.snapshot() });
    if (result.ok) expect(result.value.servers.map((s) => s.name)).toEqual(['alpha', 'beta']);
  });

  it('returns the contract errors as Result values', async () => {
    const { api } = client();
    expect(await api.reconnectServer({ name: 'bad name!' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'reconnectServer: invalid payload at "name": server name may use only letters, digits, "_", "." and "-"' },
    });
    // A handler's own failure arrives exactly as dispatch() produced it in the host.
    const direct = await dispatch(fx.core.handlers, 'setServerEnabled', { name: 'nobody', enabled: true });
    expect(direct).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await api.setServerEnabled({ name: 'nobody', enabled: true })).toEqual(direct);
    const loose = api as unknown as Record<string, (input: unknown) => Promise<unknown>>;
    expect(await loose.nope!({})).toEqual({ ok: false, error: { code: 'not_found', message: 'unknown method: nope' } });
  });

  it('delivers pushed events to subscribers until they unsubscribe', async () => {
    const { api } = client();
    await api.listServers({}); // open
    const first: ServersSnapshot[] = [];
    const second: ServersSnapshot[] = [];
    const stopFirst = api.onServersChanged((s) => first.push(s));
    let secondGot!: () => void;
    let arrived = new Promise<void>((resolve) => (secondGot = resolve));
    api.onServersChanged((s) => {
      second.push(s);
      secondGot();
    });

    fx.core.events.emit('serversChanged', fx.core.snapshot());
    await arrived;
    expect(first).toEqual([fx.core.snapshot()]);

    stopFirst();
    arrived = new Promise<void>((resolve) => (secondGot = resolve));
    fx.core.events.emit('serversChanged', fx.core.snapshot());
    await arrived;
    expect(second).toHaveLength(2);
    expect(first).toHaveLength(1);
  });

  it('keeps delivering to other listeners when one throws', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { api } = client();
      await api.listServers({});
      api.onServersChanged(() => {
        throw new Error('listener bug');
      });
      const delivered = new Promise<ServersSnapshot>((resolve) => api.onServersChanged(resolve));
      fx.core.events.emit('serversChanged', fx.core.snapshot());
      expect(await delivered).toEqual(fx.core.snapshot());
      expect(errors).toHaveBeenCalledWith('a serversChanged listener failed', new Error('listener bug'));
    } finally {
      errors.mockRestore();
    }
  });

  it('is a plain object to await and hands out stable functions', async () => {
    const { api } = client();
    expect((api as unknown as { then?: unknown }).then).toBeUndefined();
    const awaited: Api = await Promise.resolve(api);
    expect(awaited).toBe(api);
    expect(api.listServers).toBe(api.listServers);
  });

  it('reconnects with backoff to a new launch on the same port, and answers again', async () => {
    const own = await startFixture();
    const states: ConnectionState[] = [];
    const connection = client({ port: own.host.port, token: own.host.token });
    connection.onStateChange((s) => states.push(s));
    await stateReached(connection, 'open');

    await own.host.close();
    await stateReached(connection, 'closed');
    // While nothing listens, calls fail at once instead of hanging.
    expect(await connection.api.listServers({})).toEqual(LOST_CONNECTION);

    const relaunched = await startWebHost({ handlers: own.core.handlers, events: own.core.events, rendererDir: own.rendererDir, port: own.host.port, token: own.host.token });
    try {
      await stateReached(connection, 'open');
      expect(await connection.api.listServers({})).toEqual({ ok: true, value: own.core.snapshot() });
      expect(states.slice(0, 3)).toEqual(['open', 'closed', 'connecting']);
      expect(states.at(-1)).toBe('open');
    } finally {
      connection.close();
      await relaunched.close();
      await own.cleanup();
    }
  });

  it('resolves an unanswered call as "lost connection to Switchboard" when the host goes away', async () => {
    const connection = client();
    await stateReached(connection, 'open');
    const pending = connection.api.serverLogs({ name: 'alpha' });
    await held.reached; // the host holds the call
    await fx.host.close();
    expect(await pending).toEqual({ ok: false, error: { code: 'unavailable', message: 'lost connection to Switchboard' } });
    const relaunched = await startWebHost({ handlers: fx.core.handlers, events: fx.core.events, rendererDir: fx.rendererDir, port: fx.host.port, token: fx.host.token });
    try {
      await stateReached(connection, 'open');
      expect(await connection.api.listServers({})).toEqual({ ok: true, value: fx.core.snapshot() });
    } finally {
      connection.close();
      await relaunched.close();
    }
  });

  it('close() ends it for good: queued calls are lost and the state stays closed', async () => {
    const connection = client();
    const queued = connection.api.listServers({});
    connection.close();
    expect(await queued).toEqual(LOST_CONNECTION);
    expect(connection.state).toBe('closed');
    expect(await connection.api.listServers({})).toEqual(LOST_CONNECTION);
  });
});

describe('eventOfSubscriber', () => {
  it.each([
    ['onServersChanged', 'serversChanged'],
    ['onX', 'x'],
    ['openExternal', undefined],
    ['onboard', undefined],
    ['listServers', undefined],
  ])('maps %s to %s', (property, event) => {
    expect(eventOfSubscriber(property)).toBe(event);
  });
});
