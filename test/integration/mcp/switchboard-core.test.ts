import { readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServersSnapshot } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import type { SecretVault } from '../../../src-main/core/ports';
import { callByName, fixture, quietLogger, tempHome } from './helpers';

/** The vault port backed by a map: these tests are about the manager's wiring, not the keychain. */
const vault: SecretVault = (() => {
  const secrets = new Map<string, string>();
  return {
    get: async (n) => secrets.get(n),
    set: async (n, v) => void secrets.set(n, v),
    delete: async (n) => secrets.delete(n),
    list: async () => [...secrets.keys()],
  };
})();

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore | undefined;
beforeEach(async () => ({ home, cleanup } = await tempHome()));
afterEach(async () => {
  await core?.stop();
  core = undefined;
  await cleanup();
});

async function startCore(servers: Record<string, unknown>, holdServersForWindowMs?: number): Promise<{ core: SwitchboardCore; events: ServersSnapshot[] }> {
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
  const c = new SwitchboardCore({
    home,
    vault,
    opener: { open: async () => {} },
    logger: quietLogger,
    mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 },
    ...(holdServersForWindowMs === undefined ? {} : { holdServersForWindowMs }),
  });
  const events: ServersSnapshot[] = [];
  c.events.subscribe((name, payload) => {
    if (name === 'serversChanged') events.push(payload as ServersSnapshot);
  });
  await c.start();
  core = c;
  return { core: c, events };
}

const settle = async (events: ServersSnapshot[], done: (s: ServersSnapshot) => boolean) => {
  for (let i = 0; i < 1000 && !(events.length && done(events.at(-1)!)); i++) await new Promise((d) => setTimeout(d, 20));
  return events.at(-1)!;
};

describe('SwitchboardCore with the MCP manager', () => {
  it('holds servers back until the window has drawn its first list from the cache, then starts them', async () => {
    const { core: c } = await startCore({ box: { command: 'node', args: [fixture('toolbox.mjs')] } }, 60_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(c.snapshot().servers[0]).toMatchObject({ name: 'box', state: 'connecting', reason: 'waiting to start' });
    expect(await dispatch(c.handlers, 'windowShown', {})).toEqual({ ok: true, value: null });
    await expect.poll(() => c.snapshot().servers[0]?.state).toBe('connected');
  });

  it('starts the held servers when no window draws within the hold', async () => {
    const { core: c } = await startCore({ box: { command: 'node', args: [fixture('toolbox.mjs')] } }, 300);
    await expect.poll(() => c.snapshot().servers[0]?.state).toBe('connected');
  });

  it('emits serversChanged with real states and reasons, and the tray status follows', async () => {
    const { events } = await startCore({
      box: { command: 'node', args: [fixture('toolbox.mjs')] },
      crash: { command: 'node', args: [fixture('crash-on-start.mjs')] },
    });
    const last = await settle(events, (s) => s.servers.every((v) => v.state !== 'connecting'));
    const byName = Object.fromEntries(last.servers.map((s) => [s.name, s]));
    expect(byName.box).toMatchObject({ state: 'connected', transport: 'stdio', reason: 'connected over stdio', source: join(home, 'servers.json') });
    expect(byName.box!.toolCount).toBeGreaterThan(5);
    expect(byName.crash).toMatchObject({ state: 'error', reason: 'exited with code 1 during initialize', toolCount: 0 });
    expect(last.status).toMatchObject({ level: 'amber', label: 'MCP 1/2', connected: 1, enabled: 2 });
  });

  it('answers the servers invokes through dispatch', async () => {
    const { core: c, events } = await startCore({
      box: { command: 'node', args: [fixture('toolbox.mjs')] },
      crash: { command: 'node', args: [fixture('crash-on-start.mjs')] },
    });
    await settle(events, (s) => s.servers.every((v) => v.state !== 'connecting'));
    expect(await dispatch(c.handlers, 'serverLogs', { name: 'crash' })).toEqual({ ok: true, value: { name: 'crash', stderr: ['fatal: API_KEY is not set'] } });
    const tools = await dispatch(c.handlers, 'listTools', { server: 'box' });
    expect(tools.ok && (tools.value as { qualifiedName: string }[]).find((t) => t.qualifiedName === 'box__echo')).toMatchObject({
      server: 'box',
      name: 'echo',
      enabled: true,
      pending: false,
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
    });
    expect(await dispatch(c.handlers, 'setToolEnabled', { qualifiedName: 'box__echo', enabled: false })).toEqual({ ok: true, value: null });
    expect(JSON.parse(await readFile(join(home, 'tool-settings.json'), 'utf8'))).toEqual({ disabled: { box: ['echo'] }, pinned: { servers: [], tools: {} }, budget: { threshold: 10_000, mode: 'auto' } });
    expect(await dispatch(c.handlers, 'listResources', { name: 'box' })).toEqual({
      ok: true,
      value: { resources: [{ server: 'box', uri: 'toolbox://note', name: 'note', description: 'A note', mimeType: 'text/plain' }], templates: [] },
    });
    expect(await dispatch(c.handlers, 'readResource', { name: 'box', uri: 'toolbox://note' })).toEqual({ ok: true, value: [{ uri: 'toolbox://note', text: 'note text' }] });
    expect(await dispatch(c.handlers, 'listPrompts', {})).toEqual({
      ok: true,
      value: [{ server: 'box', name: 'greet', description: 'Greet someone', arguments: [{ name: 'who', required: true }] }],
    });
    expect(await dispatch(c.handlers, 'getPrompt', { name: 'box', prompt: 'greet', arguments: { who: 'Ada' } })).toEqual({
      ok: true,
      value: { messages: [{ role: 'user', text: 'Say hello to Ada' }] },
    });
    expect(await dispatch(c.handlers, 'reconnectServer', { name: 'ghost' })).toEqual({ ok: false, error: { code: 'not_found', message: 'no server named "ghost"', diagnosis: { class: 'misuse', fix: 'use a server name from the servers list (switchboard status)' } } });
    expect(await dispatch(c.handlers, 'readResource', { name: 'crash', uri: 'x://y' })).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'server "crash" is not connected (error: exited with code 1 during initialize)', diagnosis: { class: 'terminal', fix: 'it crashed while starting; its last stderr lines are below — often a missing env variable or argument' } },
    });
    // The failed calls disturbed nothing.
    expect(c.snapshot().servers.find((s) => s.name === 'box')?.state).toBe('connected');
  });

  it('reconnects a server by hand from error', async () => {
    const { core: c, events } = await startCore({ crash: { command: 'node', args: [fixture('crash-on-start.mjs')] } });
    await settle(events, (s) => s.servers[0]?.state === 'error');
    const before = events.length;
    expect(await dispatch(c.handlers, 'reconnectServer', { name: 'crash' })).toEqual({ ok: true, value: null });
    const last = await settle(events, (s) => events.length > before && s.servers[0]?.state === 'error');
    expect(last.servers[0]!.reason).toBe('exited with code 1 during initialize');
    expect(await dispatch(c.handlers, 'serverLogs', { name: 'crash' })).toEqual({
      ok: true,
      value: { name: 'crash', stderr: ['fatal: API_KEY is not set', 'fatal: API_KEY is not set'] },
    });
  });

  it('serves the project folders as roots to servers that ask', async () => {
    await writeFile(join(home, 'projects.json'), JSON.stringify({ projects: [home] }));
    const { core: c, events } = await startCore({ box: { command: 'node', args: [fixture('toolbox.mjs')] } });
    await settle(events, (s) => s.servers[0]?.state === 'connected');
    const result = await callByName(c.mcp, 'box__roots', {});
    expect(result.content).toEqual([{ type: 'text', text: JSON.stringify([{ uri: pathToFileURL(home).href, name: basename(home) }]) }]);
  });

  it('puts a server whose secret is not in the vault in error, without launching it', async () => {
    const { events } = await startCore({ needs: { command: 'node', args: [fixture('toolbox.mjs')], env: { TOKEN: '${secret:MISSING_TOKEN}' } } });
    const last = await settle(events, (s) => s.servers[0]?.state === 'error');
    expect(last.servers[0]!.reason).toBe('secret MISSING_TOKEN is not set');
    expect(await dispatch(core!.handlers, 'serverLogs', { name: 'needs' })).toEqual({ ok: true, value: { name: 'needs', stderr: [] } });
  });
});
