/**
 * MCP Apps in their sandbox, in real Chromium against the real web host and core (SECURITY U1–U6):
 * AppFrame runs on the UI's own origin with its token cookie and CSP (a test-only page the test puts in
 * the host's renderer folder), the proxy comes from the web host's second listener, and the apps come from real MCP servers over stdio: a hostile
 * fixture that tries every escape, and the npm example servers.
 */
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, type HostFixture } from '../integration/host/host-fixture';
import { bundle } from '../unit/renderer/support/browser-harness';
import { startTurnListener, type TurnListener } from '../fixtures/servers/turn-listener';
import { appCallPolicy, connectAppServer, type AppServer, type CallAttempt } from './support/app-servers';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { tinyPdf } from './support/tiny-pdf';

const missing = chromiumMissingReason();
if (missing) console.warn(`apps frame tests skipped: ${missing}`);

const SHOTS = resolve('test-results/apps');
const HARNESS = '/apps-harness.html';

/** A loopback server no app declared: it must never hear from one. */
async function startTarget(): Promise<{ server: Server; url: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'text/plain' }).end('reached');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address() as { port: number };
  return { server, url: `http://127.0.0.1:${address.port}`, requests };
}

describe.skipIf(missing)('MCP Apps in the sandbox (web mode, Chromium)', () => {
  let web: HostFixture;
  let browser: Browser;
  let page: Page;
  let origin: string;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let turn: TurnListener;
  const servers: AppServer[] = [];
  const attempts: CallAttempt[] = [];
  const records: { id: string; kind: string; text: string }[] = [];
  const server = (name: string) => servers.find((s) => s.name === name)!;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const code = await bundle('test/e2e/support/apps-harness/entry.svelte.ts');
    target = await startTarget();
    turn = await startTurnListener();
    web = await startFixture();
    origin = `http://127.0.0.1:${web.host.port}`;
    await writeFile(join(web.rendererDir, 'apps-harness.js'), code.js);
    await writeFile(join(web.rendererDir, 'apps-harness.css'), code.css);
    await writeFile(
      join(web.rendererDir, 'apps-harness.html'),
      '<!doctype html><html><head><title>apps harness</title><link rel="stylesheet" href="/apps-harness.css"></head><body><div id="app"></div><script src="/apps-harness.js"></script></body></html>',
    );
    const node = process.execPath;
    const pdf = join(await mkdtemp(join(tmpdir(), 'switchboard-pdf-')), 'hello.pdf');
    await writeFile(pdf, tinyPdf('Hello from Switchboard'));
    const pkg = (name: string) => resolve(`node_modules/@modelcontextprotocol/${name}/dist/index.js`);
    servers.push(
      await connectAppServer('hostile', node, [resolve('test/fixtures/servers/hostile-app.mjs'), '--target', target.url, '--ws', `${origin.replace('http', 'ws')}/ws`, '--turn', turn.urls.join(',')]),
      await connectAppServer('basic-svelte', node, [pkg('server-basic-svelte'), '--stdio']),
      await connectAppServer('system-monitor', node, [pkg('server-system-monitor'), '--stdio']),
      await connectAppServer('pdf', node, [pkg('server-pdf'), '--stdio', pdf]),
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
    await page.exposeFunction('harnessCallTool', appCallPolicy(servers, new Set(['wipe-data']), attempts));
    await page.exposeFunction('harnessRecord', (id: string, kind: string, text: string) => records.push({ id, kind, text }));
    // The web host's own address first: it moves the token into the cookie the harness then rides on.
    await page.goto(web.host.url);
    await page.goto(`${origin}${HARNESS}`);
    await page.waitForFunction(() => 'apps' in window);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all(servers.map((s) => s.close()));
    await web?.cleanup();
    target?.server.close();
    await turn?.close();
  });

  const mountApp = (id: string, spec: Record<string, unknown>) => page.evaluate(([i, s]) => (window as unknown as { apps: { mount(id: string, spec: unknown): void } }).apps.mount(i as string, s), [id, spec] as const);
  const call = async (s: string, tool: string, args: Record<string, unknown> = {}) => (await server(s).client.callTool({ name: tool, arguments: args })) as CallToolResult;
  const messageOf = async (id: string) => {
    await expect.poll(() => records.find((r) => r.id === id && r.kind === 'message'), { timeout: 20_000 }).toBeDefined();
    return records.find((r) => r.id === id && r.kind === 'message')!.text;
  };
  const frameOf = (id: string) => page.locator(`#${id} iframe`);
  /** Mounts the hostile fixture's `show-<page>` app with a 2 s start limit; its card's error once it has given up. */
  const failedToStart = async (app: string) => {
    await mountApp(app, { ...(await server('hostile').appFor(`show-${app}`)), toolName: `show-${app}`, serverName: 'hostile', toolInput: {}, theme: 'light', limits: { initMs: 2000 } });
    const error = page.locator(`#${app} [data-testid="app-frame-error"]`);
    await error.waitFor({ timeout: 10_000 });
    return error;
  };
  /** The frame's status, with the error's words when it failed (so a failure says why). */
  const statusOf = async (id: string) => {
    const status = await page.locator(`#${id} [data-testid="app-frame"]`).getAttribute('data-status');
    return status === 'failed' ? `failed: ${await page.locator(`#${id} [data-testid="app-frame-error"]`).textContent()}` : status;
  };

  it('loads the proxy from the sandbox listener on the app’s own name under localhost, never from the UI origin', async () => {
    const basic = await server('basic-svelte').appFor('get-time');
    await mountApp('origin-check', { ...basic, toolName: 'get-time', serverName: 'basic-svelte', toolInput: {}, theme: 'light' });
    await expect.poll(() => frameOf('origin-check').getAttribute('src'), { timeout: 20_000 }).toMatch(/^http:\/\/app-[0-9a-f]{32}\.localhost:\d+\/proxy$/);
    const src = new URL((await frameOf('origin-check').getAttribute('src'))!);
    expect(src.origin).not.toBe(origin);
    expect(await frameOf('origin-check').getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    // The app itself sits one frame further in, sandboxed to scripts only.
    // The src attribute is set before the frame navigates: wait for the proxy document itself.
    const proxy = (await (await frameOf('origin-check').elementHandle())!.contentFrame())!;
    await proxy.waitForURL((url) => url.origin === src.origin);
    expect(await proxy.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts');
    expect(await proxy.evaluate(() => document.cookie)).toBe('');
    await page.evaluate(() => (window as unknown as { apps: { unmount(id: string): void } }).apps.unmount('origin-check'));
    await expect.poll(() => page.locator('#origin-check').count(), { timeout: 10_000 }).toBe(0);
  });

  it('every escape the hostile app tries fails, and the undeclared host hears nothing', async () => {
    const hostile = await server('hostile').appFor('show-attacks');
    const result = await call('hostile', 'show-attacks');
    await mountApp('attacks', { ...hostile, toolName: 'show-attacks', serverName: 'hostile', toolInput: {}, toolResult: result, theme: 'dark' });
    const report = JSON.parse(await messageOf('attacks')) as Record<string, string>;

    expect(report.resultText).toBe('payload for attacks');
    expect(report.topNavigation).toMatch(/^threw|assigned/);
    expect(page.url()).toBe(`${origin}${HARNESS}`);
    expect(report.windowOpen).toBe('null');
    expect(page.context().pages()).toHaveLength(1);
    expect(report.readParentDocument).toBe('threw SecurityError');
    expect(report.writeParentDocument).toBe('threw SecurityError');
    expect(report.readTopLocation).toBe('threw SecurityError');
    expect(await page.title()).toBe('apps harness');
    expect(report.cookie).toBe('threw SecurityError');
    expect(report.localStorage).toBe('threw SecurityError');
    expect(report.fetchUndeclared).toBe('threw TypeError');
    expect(report.xhrUndeclared).toBe('error');
    expect(report.imageUndeclared).toBe('error');
    // sendBeacon reports only that it queued the beacon; the CSP drops it (the target's log below is the proof).
    expect(report.webSocket).toMatch(/^error$|^threw/);
    expect(report.callHiddenTool).toContain('the server did not make "admin-secrets" callable by apps');
    expect(report.callUnapprovedTool).toContain('the person denied the app\'s call to "wipe-data"');
    expect(report.callAllowedTool).toBe('result: echo hi');
    expect(JSON.parse(report.openJavascriptLink!)).toEqual({ isError: true });
    // The issue's exfiltration: WebRTC, which no CSP governs, to a TURN server's USERNAME (SECURITY U7).
    expect(report.webrtcTurn).toBe('threw TypeError');
    expect(report.webrtcRedefine).toBe('threw TypeError');
    expect(attempts.filter((a) => a.server === 'hostile')).toEqual([
      { server: 'hostile', tool: 'admin-secrets', outcome: 'refused' },
      { server: 'hostile', tool: 'wipe-data', outcome: 'denied' },
      { server: 'hostile', tool: 'app-echo', outcome: 'called' },
    ]);
    await new Promise((r) => setTimeout(r, 500));
    expect(target.requests).toEqual([]);
    expect(turn.heard).toEqual([]);
    // The refused javascript: link is shown as refused, never as something to open.
    expect(await page.locator('#attacks [data-testid="app-link-refused"]').innerText()).toContain('javascript:alert(1)');
    expect(await page.locator('#attacks [data-testid="app-link-ask"]').count()).toBe(0);
    expect(web.spawned).toEqual([]);
    expect(await statusOf('attacks')).toBe('running');
  });

  it('web mode cannot stop a srcdoc frame the app nests from reaching WebRTC: what a browser does not let a page enforce (U7 gap)', async () => {
    // Documented in docs/mcp-apps.md and docs/SECURITY.md (Gaps, U7): the nested frame is a fresh window the
    // proxy's prelude never ran in, and Chromium has no CSP directive or permission for WebRTC. Electron refuses
    // that frame (test/unit/electron/window.test.ts). When a browser learns to block it, this test fails: update the docs.
    const nested = await server('hostile').appFor('show-webrtc-nested');
    const result = await call('hostile', 'show-webrtc-nested');
    await mountApp('webrtc-nested', { ...nested, toolName: 'show-webrtc-nested', serverName: 'hostile', toolInput: {}, toolResult: result, theme: 'light' });
    expect(JSON.parse(await messageOf('webrtc-nested'))).toEqual({ nested: 'gathering' });
    await expect.poll(() => turn.usernames, { timeout: 20_000 }).toContain('leak:payload for webrtc-nested');
  });

  it('opens an app’s link only on the person’s click on that very URL, shown whole (U7)', async () => {
    const links = await server('hostile').appFor('show-links');
    const result = await call('hostile', 'show-links');
    await mountApp('links', { ...links, toolName: 'show-links', serverName: 'hostile', toolInput: {}, toolResult: result, theme: 'light' });
    const asks = page.locator('#links [data-testid="app-link-ask"]');
    await expect.poll(() => asks.count(), { timeout: 20_000 }).toBe(2);
    const leak = 'https://example.com/collect?data=payload%20for%20links';
    expect(await asks.nth(0).getByTestId('app-link-url').innerText()).toBe(leak);
    expect(await asks.nth(1).getByTestId('app-link-url').innerText()).toBe('https://example.com/second');
    expect(await page.locator('#links [data-testid="app-pending"]').getAttribute('data-count')).toBe('2');
    await page.locator('#links').screenshot({ path: `${SHOTS}/link-asks.png` });
    // Nothing has opened while the person has not answered.
    expect(web.spawned).toEqual([]);
    await asks.nth(0).getByRole('button', { name: 'Open this link' }).click();
    await expect.poll(() => asks.count(), { timeout: 10_000 }).toBe(1);
    // The card's own "Deny all from this app" declines what is left.
    await page.locator('#links [data-testid="app-pending"]').getByRole('button', { name: 'Deny all from this app' }).click();
    expect(JSON.parse(await messageOf('links'))).toEqual([{}, { isError: true }]);
    expect(web.spawned.map((s) => s.args.at(-1))).toEqual([leak]);
    expect(await page.locator('#links [data-testid="app-pending"]').count()).toBe(0);
  });

  it('stops an app that floods postMessage, and the UI stays responsive', async () => {
    const flood = await server('hostile').appFor('show-flood');
    // The longest the UI's main thread went without running a timer, from mount until the error shows.
    await page.evaluate(() => {
      const w = window as unknown as { maxGap: number };
      w.maxGap = 0;
      let last = performance.now();
      setInterval(() => {
        const now = performance.now();
        w.maxGap = Math.max(w.maxGap, now - last);
        last = now;
      }, 10);
    });
    const mountedAt = Date.now();
    await mountApp('flood', { ...flood, toolName: 'show-flood', serverName: 'hostile', toolInput: {}, theme: 'light', limits: { messagesPerSecond: 200 } });
    const error = page.locator('#flood [data-testid="app-frame-error"]');
    await error.waitFor({ timeout: 20_000 });
    const stall = await page.evaluate(() => (window as unknown as { maxGap: number }).maxGap);
    console.log(`flood stopped after ${Date.now() - mountedAt} ms; longest UI stall ${Math.round(stall)} ms`);
    // Unguarded, the UI stalled for seconds at a time and took 12 s to notice; guarded, it hardly stalls.
    expect(stall).toBeLessThan(3000);
    expect(await error.textContent()).toContain('the app sent more than 200 messages in a second and was stopped');
    expect(await frameOf('flood').count()).toBe(0);
    const started = Date.now();
    for (let i = 0; i < 5; i++) await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('shows an error when an app never initializes within the timeout', async () => {
    const error = await failedToStart('silent');
    expect(await error.textContent()).toContain('the app did not start within 2 s');
  });

  it('says what the app’s console printed when it fails before it starts: its first error, as bounded plain text', async () => {
    const error = await failedToStart('crash');
    const text = (await error.textContent())!;
    expect(text).toContain('the app did not start within 2 s; its console said: config failed: <img src=x onerror="parent.postMessage(1, \'*\')"> gnp.exe xxx');
    // Markup stays text, the override is gone, the line is bounded, and the later error is not the one shown.
    expect(await error.locator('img').count()).toBe(0);
    expect(text).not.toContain('\u202E');
    expect(text).not.toContain('the second error');
    expect(text.length).toBeLessThan(500);
    expect(text).toMatch(/x…$/);
  });

  it('names what the app’s CSP refused when that keeps it from starting', async () => {
    const error = await failedToStart('cdn');
    expect(await error.textContent()).toContain('its console said: refused by its content security policy (script-src-elem): https://cdn.example.invalid/app.js');
  });

  it('renders server-basic-svelte and gives it the tool input, then the result', async () => {
    const basic = await server('basic-svelte').appFor('get-time');
    await mountApp('basic', { ...basic, toolName: 'get-time', serverName: 'basic-svelte', toolInput: {}, theme: 'light' });
    await expect.poll(() => statusOf('basic'), { timeout: 20_000 }).toBe('running');
    const result = await call('basic-svelte', 'get-time');
    const time = (result.content[0] as { text: string }).text;
    await page.evaluate(([r]) => (window as unknown as { apps: { setResult(id: string, r: unknown): void } }).apps.setResult('basic', r), [result] as const);
    const app = page.frameLocator('#basic iframe').frameLocator('iframe');
    await expect.poll(() => app.locator('body').innerText(), { timeout: 10_000 }).toContain(time);
    await page.locator('#basic').screenshot({ path: `${SHOTS}/basic-svelte.png` });
    expect(records.filter((r) => r.id === 'basic')).toEqual([]);
  });

  it('renders server-system-monitor, which polls its app-only tool through the host', async () => {
    const monitor = await server('system-monitor').appFor('get-system-info');
    const result = await call('system-monitor', 'get-system-info');
    await mountApp('monitor', { ...monitor, toolName: 'get-system-info', serverName: 'system-monitor', toolInput: {}, toolResult: result, theme: 'dark' });
    await expect.poll(() => attempts.some((a) => a.server === 'system-monitor' && a.tool === 'poll-system-stats' && a.outcome === 'called'), { timeout: 20_000 }).toBe(true);
    await page.waitForTimeout(1500);
    await page.locator('#monitor').screenshot({ path: `${SHOTS}/system-monitor.png` });
    expect(await statusOf('monitor')).toBe('running');
  });

  it('renders server-pdf: the viewer loads a local PDF through its app-only tool', { timeout: 150_000 }, async () => {
    const viewer = await server('pdf').appFor('display_pdf');
    const pdfPath = ((await call('pdf', 'list_pdfs')).structuredContent as { localFiles: string[] }).localFiles[0]!;
    const result = await call('pdf', 'display_pdf', { url: pdfPath });
    await mountApp('pdf', { ...viewer, toolName: 'display_pdf', serverName: 'pdf', toolInput: { url: pdfPath }, toolResult: result, theme: 'light', limits: { initMs: 60_000 } });
    // In view, as a person would see it: Chromium does not paint a cross-origin frame below the fold, and the viewer only reports its size once it has drawn.
    await page.locator('#pdf').scrollIntoViewIfNeeded();
    await expect.poll(() => statusOf('pdf'), { timeout: 60_000 }).toBe('running');
    await expect.poll(() => attempts.some((a) => a.server === 'pdf' && a.tool === 'read_pdf_bytes' && a.outcome === 'called'), { timeout: 30_000 }).toBe(true);
    // The viewer reports its size once the page is drawn: the frame follows, up to its 640 px bound.
    await expect.poll(() => frameOf('pdf').evaluate((f) => f.getBoundingClientRect().height), { timeout: 60_000 }).toBe(640);
    await page.waitForTimeout(2000);
    await page.locator('#pdf').screenshot({ path: `${SHOTS}/pdf.png` });
    expect(await statusOf('pdf')).toBe('running');
  });

  it('shows an error when a running app hangs, without freezing the UI or the other apps', async () => {
    const hang = await server('hostile').appFor('show-hang');
    await mountApp('hang', { ...hang, toolName: 'show-hang', serverName: 'hostile', toolInput: {}, theme: 'light', limits: { pingEveryMs: 300, pingTimeoutMs: 1500 } });
    await expect.poll(() => statusOf('hang'), { timeout: 20_000 }).toBe('running');
    const hungHost = new URL((await frameOf('hang').getAttribute('src'))!).host;
    const started = Date.now();
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(Date.now() - started).toBeLessThan(1000);
    const error = page.locator('#hang [data-testid="app-frame-error"]');
    await error.waitFor({ timeout: 10_000 });
    expect(await error.textContent()).toContain('the app stopped answering');
    // Another app, on an origin (and so a process) of its own, starts while the hung one still spins.
    const basic = await server('basic-svelte').appFor('get-time');
    const mountedAt = Date.now();
    await mountApp('after-hang', { ...basic, toolName: 'get-time', serverName: 'basic-svelte', toolInput: {}, theme: 'light' });
    await expect.poll(() => statusOf('after-hang'), { timeout: 20_000 }).toBe('running');
    console.log(`an app mounted after a hung one was running in ${Date.now() - mountedAt} ms`);
    expect(hungHost).not.toBe(new URL((await frameOf('after-hang').getAttribute('src'))!).host);
  });
});
