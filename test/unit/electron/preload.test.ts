import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { eventChannel, events, invokeChannel, invokes, subscriberName, type Api, type EventName, type ServersSnapshot } from '../../../src-preload/contract';
import { contextBridge, ipcRenderer } from './test-electron';

vi.mock('electron', () => import('./test-electron'));

const loadPreload = async () => {
  await import('../../../src-preload/index');
  return contextBridge.exposed.get('switchboard') as Api;
};

const contractNames = [...Object.keys(invokes), ...Object.keys(events).map((name) => subscriberName(name as EventName))].sort();

describe('preload (contract item 4, SECURITY R5)', () => {
  it('exposes one object, window.switchboard, holding exactly the contract named functions', async () => {
    const api = await loadPreload();
    expect([...contextBridge.exposed.keys()]).toEqual(['switchboard']);
    expect(Object.keys(api).sort()).toEqual(contractNames);
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
    for (const generic of ['invoke', 'on', 'send', 'once', 'removeListener', 'ipcRenderer']) expect(generic in api).toBe(false);
    expect(Object.isFrozen(api)).toBe(true);
  });

  it('sends each named call on its own channel with the input as given, and hands back the Result', async () => {
    const api = await loadPreload();
    ipcRenderer.reply = { ok: false, error: { code: 'not_found', message: 'no server named "x"' } };
    expect(await api.reconnectServer({ name: 'x' })).toEqual(ipcRenderer.reply);
    await api.listServers({});
    expect(ipcRenderer.invoked).toEqual([
      [invokeChannel('reconnectServer'), { name: 'x' }],
      [invokeChannel('listServers'), {}],
    ]);
  });

  it('gives an event listener the payload only, and its unsubscribe removes exactly that listener', async () => {
    const api = await loadPreload();
    const channel = eventChannel('serversChanged');
    const before = ipcRenderer.listenerCount(channel);
    const received: unknown[][] = [];
    const stop = api.onServersChanged((...args: unknown[]) => received.push(args));
    const payload = { servers: [], problems: [], status: { level: 'neutral', label: 'No servers', connected: 0, enabled: 0, needsAuth: 0 }, configPath: '/x', toolBudget: { threshold: 10_000, mode: 'auto', enabledTokens: 0, enabledTools: 0, pinnedTools: 0, pinnedTokens: 0, overBudget: false, onDemand: false, tokenizer: 'o200k_base (gpt-tokenizer)', counting: false } } as ServersSnapshot;
    ipcRenderer.emit(channel, { sender: 'the ipc event must not leak' }, payload);
    stop();
    ipcRenderer.emit(channel, {}, payload);
    expect(received).toEqual([[payload]]);
    expect(ipcRenderer.listenerCount(channel)).toBe(before);
  });
});

// The preload electron-vite builds runs sandboxed, where require() knows only 'electron'.
const built = resolve(import.meta.dirname, '../../../out/preload/index.cjs');
const preloadSources = resolve(import.meta.dirname, '../../../src-preload');
const sourceNewest = () =>
  (readdirSync(preloadSources, { recursive: true }) as string[]).map((p) => statSync(join(preloadSources, p)).mtimeMs).reduce((a, b) => Math.max(a, b));
const buildFresh = existsSync(built) && statSync(built).mtimeMs >= sourceNewest();
if (!buildFresh) console.info(`preload.test: ${join('out', 'preload', 'index.cjs')} is missing or older than its source; run \`npx electron-vite build\` (npm test does) to check the built preload`);

describe.skipIf(!buildFresh)('the built preload', () => {
  it('requires nothing but electron, so it loads in a sandboxed renderer', async () => {
    const electronStandIn = await import('./test-electron');
    const required: string[] = [];
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`module not found: ${name}`);
      return electronStandIn;
    };
    electronStandIn.contextBridge.exposed.clear();
    const module = { exports: {} };
    new Function('require', 'module', 'exports', readFileSync(built, 'utf8'))(sandboxRequire, module, module.exports);
    expect(required).toEqual(['electron']);
    expect(Object.keys(electronStandIn.contextBridge.exposed.get('switchboard') as object).sort()).toEqual(contractNames);
  });
});
