import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { invokeChannel, invokes, type InvokeName, type ServersSnapshot } from '../../../src-preload/contract';
import { appOriginLabel } from '../../../src-main/core/apps/app-origin';
import type * as ElectronStandIns from './test-electron';

// The composition root, run against the electron stand-ins: what a real launch does, minus Chromium.
vi.mock('electron', () => import('./test-electron'));

let home: string;
beforeEach(() => {
  vi.resetModules();
  home = mkdtempSync(join(tmpdir(), 'switchboard-index-'));
  // One disabled server: listed, never spawned.
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ servers: { notes: { command: 'node', args: ['notes.js'], enabled: false } } }));
  vi.stubEnv('SWITCHBOARD_HOME', home);
});
afterEach(() => {
  // Should the app have left its server running, do not leave it to the machine.
  const pidFile = join(home, 'server.pid');
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, 'utf8'));
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The stand-ins index.ts sees (the mock, which outlives vi.resetModules), freshly reset. */
async function standIns() {
  const electron = (await import('electron')) as unknown as typeof ElectronStandIns;
  electron.callOrder.length = 0;
  electron.TestBrowserWindow.instances.length = 0;
  electron.ipcMain.handlers.clear();
  electron.protocol.handlers.clear();
  electron.protocol.privileged.length = 0;
  electron.app.removeAllListeners();
  electron.app.resetReady();
  electron.app.lockGranted = true;
  electron.app.quitRequests = 0;
  electron.app.quitted = false;
  electron.app.protocolClients.length = 0;
  electron.nativeTheme.reset();
  return electron;
}

async function boot() {
  const electron = await standIns();
  await import('../../../src-main/index');
  return electron;
}

describe('the Electron composition root', () => {
  it('sets the data home as userData and registers app:// before taking the single-instance lock and before ready', async () => {
    const { app, callOrder, protocol } = await boot();
    expect(app.getPath('userData')).toBe(home);
    expect(callOrder).toEqual(['setPath userData', 'registerSchemesAsPrivileged', 'requestSingleInstanceLock', 'setAsDefaultProtocolClient switchboard']);
    expect(protocol.privileged).toEqual([
      { scheme: 'app', privileges: { standard: true, secure: true, corsEnabled: true } },
      { scheme: 'switchboard-sandbox', privileges: { standard: true, secure: true } },
    ]);
    app.quit();
  });

  it('quits at once, building nothing, when another instance holds the lock', async () => {
    const electron = await standIns();
    electron.app.lockGranted = false;
    await import('../../../src-main/index');
    expect(electron.app.quitRequests).toBe(1);
    electron.app.becomeReady();
    await new Promise((settle) => setImmediate(settle));
    expect(electron.TestBrowserWindow.instances).toEqual([]);
    expect(electron.ipcMain.handlers.size).toBe(0);
    // The running instance is the link handler; this one only passes its arguments on.
    expect(electron.app.protocolClients).toEqual([]);
  });

  it('opens the install form for a switchboard:// link it was launched with or handed later, never installing by itself (B3)', async () => {
    const argv = process.argv;
    process.argv = [...argv, 'switchboard://install?catalog=memory&name=mem'];
    const { app, ipcMain, TestBrowserWindow, TestEvent } = await boot().finally(() => (process.argv = argv));
    const frame = { url: 'app://switchboard/index.html', parent: null };
    const take = () => ipcMain.invoke(invokeChannel('takeInstallLink'), frame, {});
    // Before ready the core does not exist: the link waits.
    app.becomeReady();
    await vi.waitFor(() => expect(TestBrowserWindow.instances).toHaveLength(1));
    const win = TestBrowserWindow.instances[0]!;
    await vi.waitFor(() => expect(win.webContents.sent).toContainEqual(['switchboard:event:installLinkOffered', {}]));
    expect(await take()).toEqual({ ok: true, value: { kind: 'catalog', catalog: 'memory', name: 'mem' } });
    expect(await take()).toEqual({ ok: true, value: null });

    win.hide();
    const sneaky = Buffer.from(JSON.stringify({ command: 'sh', args: ['-c', 'echo ${secret:github-token}'] })).toString('base64url');
    app.emit('second-instance', new TestEvent(), ['/opt/Switchboard/switchboard', `switchboard://install?config=${sneaky}`], '/');
    expect(win.visible).toBe(true);
    expect(await take()).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: "the install link's config uses ${…}, which a link may not (it could read your secrets)" },
    });
    expect(readFileSync(join(home, 'servers.json'), 'utf8')).not.toContain('sh');
    app.quit();
    await vi.waitFor(() => expect(app.quitted).toBe(true), { timeout: 20_000 });
  });

  it('runs the app: protocol, IPC over the core, a hardened window, the tray; close hides; quit stops the core first', async () => {
    // A real stdio server that notes its pid, to see that quitting leaves no process behind (SECURITY P4).
    const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
    const pidFile = join(home, 'server.pid');
    writeFileSync(join(home, 'note-pid.mjs'), `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));`);
    writeFileSync(
      join(home, 'servers.json'),
      JSON.stringify({
        servers: {
          notes: { command: 'node', args: ['notes.js'], enabled: false },
          everything: { command: process.execPath, args: ['--import', join(home, 'note-pid.mjs'), everything, 'stdio'] },
        },
      }),
    );
    const { app, ipcMain, protocol, Tray, TestBrowserWindow, TestEvent } = await boot();
    app.becomeReady();
    await vi.waitFor(() => expect(TestBrowserWindow.instances).toHaveLength(1));
    const win = TestBrowserWindow.instances[0]!;

    expect([...protocol.handlers.keys()]).toEqual(['app', 'switchboard-sandbox']);
    const proxy = await protocol.handlers.get('switchboard-sandbox')!(new Request(`switchboard-sandbox://${appOriginLabel('pdf', 'ui://pdf/viewer')}/`));
    expect([proxy.status, proxy.headers.get('content-security-policy')]).toEqual([200, expect.stringContaining('frame-ancestors app://switchboard')]);
    expect([...ipcMain.handlers.keys()].sort()).toEqual(Object.keys(invokes).map((n) => invokeChannel(n as InvokeName)).sort());
    const listed = (await ipcMain.invoke(invokeChannel('listServers'), { url: 'app://switchboard/index.html', parent: null }, {})) as { ok: true; value: ServersSnapshot };
    expect(listed.value.servers.map((s) => s.name).sort()).toEqual(['everything', 'notes']);
    expect(listed.value.configPath).toBe(join(home, 'servers.json'));
    // Electron's shell, not the core, knows where the apps sandbox is.
    const sandbox = await ipcMain.invoke(invokeChannel('appSandbox'), { url: 'app://switchboard/index.html', parent: null }, { server: 'pdf', uri: 'ui://pdf/viewer' });
    expect(sandbox).toEqual({ ok: true, value: { url: `switchboard-sandbox://${appOriginLabel('pdf', 'ui://pdf/viewer')}/` } });

    const prefs = win.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false, webSecurity: true });
    expect(String(prefs.preload)).toMatch(/[\\/]preload[\\/]index\.cjs$/);
    expect(win.url).toBe('app://switchboard/index.html');
    expect(win.webContents.windowOpenHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(win.visible).toBe(false);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);

    // The tray and the window follow the core: the server connects and both hear of it.
    const tray = Tray.instances.at(-1)!;
    await vi.waitFor(() => expect(tray.tooltip).toBe('MCP 1/1'), { timeout: 20_000 });
    expect(tray.image.path).toBe(join(process.cwd(), 'assets', 'tray-green.png'));
    const lastSent = win.webContents.sent.at(-1)!;
    expect(lastSent[0]).toBe('switchboard:event:serversChanged');
    expect((lastSent[1] as ServersSnapshot).status.label).toBe('MCP 1/1');
    const serverPid = Number(readFileSync(pidFile, 'utf8'));
    expect(isRunning(serverPid)).toBe(true);

    win.close();
    expect([win.visible, win.destroyed]).toEqual([false, false]);
    expect(JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))).toEqual({ 'window.bounds': { x: 10, y: 20, width: 1100, height: 760 } });
    app.emit('second-instance', new TestEvent(), ['/opt/Switchboard/switchboard'], '/');
    expect(win.visible).toBe(true);

    app.quit();
    expect(app.quitted).toBe(false); // held until the core has stopped its servers
    await vi.waitFor(() => expect(app.quitted).toBe(true), { timeout: 20_000 });
    expect(app.quitRequests).toBe(2);
    expect(isRunning(serverPid)).toBe(false);
    expect(win.destroyed).toBe(true);
    expect(tray.destroyed).toBe(true);
  });

  it('opens the window in the stored theme, and a new choice reaches nativeTheme, the window, the tray and the page', async () => {
    writeFileSync(join(home, 'appearance.json'), JSON.stringify({ theme: 'dark' }));
    const { app, ipcMain, Tray, TestBrowserWindow, nativeTheme } = await boot();
    app.becomeReady();
    await vi.waitFor(() => expect(TestBrowserWindow.instances).toHaveLength(1));
    const win = TestBrowserWindow.instances[0]!;
    expect(nativeTheme.themeSource).toBe('dark');
    expect(win.options.backgroundColor).toBe('#12151c');
    const tray = Tray.instances.at(-1)!;
    const checked = () => (tray.menu!.template.find((i) => i.label === 'Appearance') as unknown as { submenu: { label: string; checked: boolean }[] }).submenu.find((i) => i.checked)!.label;
    expect(checked()).toBe('Dark');

    const frame = { url: 'app://switchboard/index.html', parent: null };
    expect(await ipcMain.invoke(invokeChannel('setAppearance'), frame, { theme: 'light' })).toEqual({ ok: true, value: { theme: 'light' } });
    expect(nativeTheme.themeSource).toBe('light');
    expect(win.backgroundColor).toBe('#f6f7f9');
    expect(checked()).toBe('Light');
    expect(win.webContents.sent).toContainEqual(['switchboard:event:appearanceChanged', { theme: 'light' }]);
    expect(JSON.parse(readFileSync(join(home, 'appearance.json'), 'utf8'))).toEqual({ theme: 'light' });

    const refused = (await ipcMain.invoke(invokeChannel('setAppearance'), frame, { theme: 'sepia' })) as { ok: false; error: { code: string; message: string } };
    expect(refused.error).toEqual({ code: 'invalid_input', message: 'setAppearance: invalid payload at "theme": theme must be "system", "light" or "dark"' });
    expect(JSON.parse(readFileSync(join(home, 'appearance.json'), 'utf8'))).toEqual({ theme: 'light' });

    app.quit();
    await vi.waitFor(() => expect(app.quitted).toBe(true), { timeout: 20_000 });
  });
});
