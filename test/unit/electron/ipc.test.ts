import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMain, WebContents } from 'electron';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventChannel, invokeChannel, invokes, type Handlers, type ServersSnapshot } from '../../../src-preload/contract';
import type { Logger, UrlOpener } from '../../../src-main/core/ports';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { bindIpc, forwardEvents, senderRefusal } from '../../../src-main/electron/ipc';
import { TestIpcMain, TestWebContents } from './test-electron';

const appFrame = { url: 'app://switchboard/index.html', parent: null };
const silent: Logger = { info() {}, warn() {}, error() {} };
const opener: UrlOpener = { open: async () => {} };

let home: string;
let core: SwitchboardCore;
let ipc: TestIpcMain;
let calls: string[];

beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), 'switchboard-ipc-'));
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ servers: { everything: { command: 'node', args: ['server.js'] } } }));
  core = new SwitchboardCore({ home, vault: new MemoryVault(), opener, logger: silent });
  await core.start();
  // Count what reaches the core, to show a refused call never does.
  calls = [];
  const counted = Object.fromEntries(
    Object.entries(core.handlers).map(([name, handler]) => [name, (input: unknown) => (calls.push(name), (handler as (i: unknown) => Promise<unknown>)(input))]),
  ) as unknown as Handlers;
  ipc = new TestIpcMain();
  bindIpc(ipc as unknown as IpcMain, counted);
});
afterEach(async () => {
  await core.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('bindIpc (contract item 4, SECURITY R5)', () => {
  it('binds exactly one handler per contract invoke and nothing else', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(Object.keys(invokes).map((name) => invokeChannel(name as keyof typeof invokes)).sort());
  });

  it('answers a call from the app top-level frame with the core result', async () => {
    const result = (await ipc.invoke(invokeChannel('listServers'), appFrame, {})) as { ok: true; value: ServersSnapshot };
    expect(result.ok).toBe(true);
    expect(result.value.servers.map((s) => s.name)).toEqual(['everything']);
    expect(calls).toEqual(['listServers']);
  });

  it('refuses a call from a sub-frame of the app without reaching the core', async () => {
    const subFrame = { url: 'app://switchboard/index.html', parent: appFrame };
    expect(await ipc.invoke(invokeChannel('reconnectAll'), subFrame, {})).toEqual({
      ok: false,
      error: { code: 'forbidden_sender', message: 'reconnectAll: refused a call from a sub-frame' },
    });
    expect(calls).toEqual([]);
  });

  it('refuses a call from a top-level frame of another origin without reaching the core', async () => {
    for (const [url, origin] of [
      ['https://evil.example/page', 'https://evil.example'],
      ['app://elsewhere/index.html', 'app://elsewhere'],
      ['file:///home/me/index.html', 'file://'],
    ] as const) {
      expect(await ipc.invoke(invokeChannel('setServerEnabled'), { url, parent: null }, { name: 'everything', enabled: false })).toEqual({
        ok: false,
        error: { code: 'forbidden_sender', message: `setServerEnabled: refused a call from ${origin} (not the app)` },
      });
    }
    expect(calls).toEqual([]);
  });

  it('refuses a call whose frame is gone or has no URL', async () => {
    expect(senderRefusal(null)).toBe('a frame that no longer exists');
    expect(senderRefusal({ url: '', parent: null })).toBe('a frame without a valid URL');
    expect(await ipc.invoke(invokeChannel('listServers'), null, {})).toEqual({
      ok: false,
      error: { code: 'forbidden_sender', message: 'listServers: refused a call from a frame that no longer exists' },
    });
    expect(calls).toEqual([]);
  });

  it('refuses a malformed payload with the field and the rule, without reaching the handler', async () => {
    expect(await ipc.invoke(invokeChannel('reconnectServer'), appFrame, { name: '' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'reconnectServer: invalid payload at "name": server name is empty' },
    });
    expect(await ipc.invoke(invokeChannel('setServerEnabled'), appFrame, { name: 'everything', enabled: 'yes' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'setServerEnabled: invalid payload at "enabled": Invalid input: expected boolean, received string' },
    });
    expect(calls).toEqual([]);
    // Nothing was disturbed: the server is still there and enabled.
    expect(core.snapshot().servers.map((s) => [s.name, s.enabled])).toEqual([['everything', true]]);
  });

  it('returns a handler failure as a Result value, never a thrown error', async () => {
    expect(await ipc.invoke(invokeChannel('serverLogs'), appFrame, { name: 'nobody' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no server named "nobody"', diagnosis: { class: 'misuse', fix: 'use a server name from the servers list (switchboard status)' } },
    });
  });

  it('unbinds every handler it bound', () => {
    const other = new TestIpcMain();
    const unbind = bindIpc(other as unknown as IpcMain, core.handlers);
    unbind();
    expect(other.handlers.size).toBe(0);
  });
});

describe('forwardEvents', () => {
  it('sends each core event to the window on its contract channel, and stops on unsubscribe', () => {
    const contents = new TestWebContents();
    const stop = forwardEvents(core.events, () => contents as unknown as WebContents);
    const snapshot = core.snapshot();
    core.events.emit('serversChanged', snapshot);
    stop();
    core.events.emit('serversChanged', snapshot);
    expect(contents.sent).toEqual([[eventChannel('serversChanged'), snapshot]]);
  });

  it('sends nothing when there is no window or it was destroyed', () => {
    const contents = new TestWebContents();
    contents.destroyed = true;
    forwardEvents(core.events, () => contents as unknown as WebContents);
    forwardEvents(core.events, () => undefined);
    core.events.emit('serversChanged', core.snapshot());
    expect(contents.sent).toEqual([]);
  });
});
