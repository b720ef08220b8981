import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import NodeWebSocket from 'ws';
import type { Api } from '../../../src-preload/contract';
import { cookieFor, startFixture, type HostFixture } from './host-fixture';

/** src-renderer/lib/api/index.ts picks the Api once per page; each test loads it fresh. */
const loadApiModule = async () => {
  vi.resetModules();
  return import('../../../src-renderer/lib/api/index');
};

let fx: HostFixture;
const globals = globalThis as unknown as { window?: unknown; WebSocket?: unknown };
const previous = { window: globals.window, WebSocket: globals.WebSocket };

beforeAll(async () => {
  fx = await startFixture();
});
afterEach(() => {
  globals.window = previous.window;
  globals.WebSocket = previous.WebSocket;
});
afterAll(async () => {
  await fx?.cleanup();
});

describe('getApi', () => {
  it('uses the Electron preload bridge when the page has one, always connected', async () => {
    const bridge = {} as Api;
    globals.window = { switchboard: bridge, location: { protocol: 'app:', host: 'switchboard' } };
    const { getApi, getConnection } = await loadApiModule();
    expect(getApi()).toBe(bridge);
    expect(getApi()).toBe(getApi());
    expect(getConnection().state).toBe('open');
  });

  it('without a bridge, talks to the web host at ws://<page host>/ws with the page cookie', async () => {
    const seen: string[] = [];
    // What a browser does for a page on http://127.0.0.1:<port>: Origin and the cookie jar's token go along.
    class PageWebSocket extends NodeWebSocket {
      constructor(url: string | URL, protocols?: string | string[]) {
        seen.push(String(url));
        super(url, protocols, { origin: `http://127.0.0.1:${fx.host.port}`, headers: { Cookie: cookieFor(fx.host) } });
      }
    }
    globals.WebSocket = PageWebSocket;
    globals.window = { location: { protocol: 'http:', host: `127.0.0.1:${fx.host.port}` } };
    const { getApi, getConnection } = await loadApiModule();
    const api = getApi();
    try {
      expect(await api.listServers({})).toEqual({ ok: true, value: fx.core.snapshot() });
      expect(seen).toEqual([`ws://127.0.0.1:${fx.host.port}/ws`]);
      expect(getConnection().state).toBe('open');
    } finally {
      (getConnection() as { close?: () => void }).close?.();
    }
  });
});

describe('webSocketUrl', () => {
  it.each([
    [{ protocol: 'http:', host: '127.0.0.1:4123' }, 'ws://127.0.0.1:4123/ws'],
    [{ protocol: 'https:', host: 'switchboard.example' }, 'wss://switchboard.example/ws'],
  ])('maps %j to %s', async (location, url) => {
    const { webSocketUrl } = await loadApiModule();
    expect(webSocketUrl(location)).toBe(url);
  });
});
