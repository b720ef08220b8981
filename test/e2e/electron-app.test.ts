import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, invokes, subscriberName, type EventName } from '../../src-preload/contract';

const appRoot = resolve(import.meta.dirname, '../..');
const everything = join(appRoot, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/**
 * Where the Electron binary is, found the way the electron package finds it but without requiring
 * the package: from Electron 42 on that would start a download, and here it would fail or hang.
 */
function findElectron(): { binary: string } | { missing: string } {
  const packageDir = join(appRoot, 'node_modules/electron');
  const pathFile = join(packageDir, 'path.txt');
  const platformPath = existsSync(pathFile)
    ? readFileSync(pathFile, 'utf8')
    : process.platform === 'darwin'
      ? 'Electron.app/Contents/MacOS/Electron'
      : process.platform === 'win32'
        ? 'electron.exe'
        : 'electron';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, platformPath) : join(packageDir, 'dist', platformPath);
  if (!existsSync(binary)) {
    return { missing: override ? `ELECTRON_OVERRIDE_DIST_PATH holds no Electron binary (${binary})` : 'the Electron binary is not installed (Electron ≥ 42 downloads it on first use, and it could not be fetched here)' };
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return { missing: 'there is no display (DISPLAY / WAYLAND_DISPLAY unset; run under xvfb-run)' };
  if (!existsSync(join(appRoot, 'out/main/index.js'))) return { missing: 'the app is not built (run `npx electron-vite build`; npm test does)' };
  return { binary };
}

const electron = findElectron();
if ('missing' in electron) console.warn(`Electron app e2e skipped: ${electron.missing}`);

describe.skipIf('missing' in electron)('the Electron app (real binary)', () => {
  let home: string;
  let app: ElectronApplication;
  let page: Page;

  beforeAll(async () => {
    if (!('binary' in electron)) return;
    home = mkdtempSync(join(tmpdir(), 'switchboard-electron-e2e-'));
    writeFileSync(join(home, 'servers.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }, null, 2));
    // Chromium refuses to run as root with its sandbox on; only then do we switch it off, for this test run alone.
    const rootFlags = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    app = await _electron.launch({
      executablePath: electron.binary,
      args: [...rootFlags, appRoot],
      env: { ...process.env, SWITCHBOARD_HOME: home, ELECTRON_ENABLE_LOGGING: '1' },
      timeout: 60_000,
    });
    page = await app.firstWindow();
  }, 90_000);

  afterAll(async () => {
    // close() asks the app to quit; the app stops its servers first.
    await app?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('serves the UI from app://switchboard/ and lists the configured server as connected', async () => {
    expect(page.url()).toBe('app://switchboard/index.html');
    const rows = page.getByRole('list', { name: 'Configured servers' }).getByRole('listitem');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => page.locator('[data-server="everything"]').getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
    expect(await page.getByTestId('aggregate-status').innerText()).toBe('MCP 1/1');
  });

  it('shares the data home it was given: Electron userData is SWITCHBOARD_HOME', async () => {
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(home);
  });

  it('gives the page the named Api and nothing of Node', async () => {
    const expected = [...Object.keys(invokes), ...Object.keys(events).map((e) => subscriberName(e as EventName))].sort();
    expect(await page.evaluate(() => Object.keys(window.switchboard ?? {}).sort())).toEqual(expected);
    expect(await page.evaluate(() => [typeof (globalThis as { require?: unknown }).require, typeof (globalThis as { process?: unknown }).process])).toEqual(['undefined', 'undefined']);
  });

  it('opens no new window, and a malformed call from the page comes back as an invalid_input Result', async () => {
    expect(await page.evaluate(() => window.open('file:///etc/passwd') === null)).toBe(true);
    expect(app.windows()).toHaveLength(1);
    const result = await page.evaluate(() => window.switchboard!.reconnectServer({ name: '' }));
    expect(result).toEqual({ ok: false, error: { code: 'invalid_input', message: 'reconnectServer: invalid payload at "name": server name is empty' } });
  });

  it('keeps running in the tray when the window is closed', async () => {
    // What the title bar's close button does: a close request to the BrowserWindow.
    await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0]!.close());
    const state = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => ({ visible: w.isVisible(), destroyed: w.isDestroyed() })));
    expect(state).toEqual([{ visible: false, destroyed: false }]);
  });
});
