import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_SCOPE, startAuthorizationServer, type AuthorizationServerFixture } from '../fixtures/oauth/authorization-server';
import { HeadlessBrowser } from '../fixtures/oauth/headless-browser';
import { startProtectedMcpServer, type ProtectedMcpServerFixture } from '../fixtures/oauth/protected-mcp-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const missing =
  chromiumMissingReason() ??
  (hasKeychain ? undefined : 'SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh') ??
  (process.platform === 'linux' ? undefined : 'the system browser is stood in for through xdg-open\'s $BROWSER, which is Linux only');
if (missing) console.warn(`web sign-in buttons e2e skipped: ${missing}`);

/**
 * The sign-in buttons against a real authorization server (oidc-provider) and a protected MCP server.
 * Web mode opens the system browser with xdg-open; $BROWSER points it at a script that only records
 * the URL, and the test plays the browser (HeadlessBrowser) so the flow ends at the real loopback.
 */
describe.skipIf(missing !== undefined)('remote sign-in buttons in web mode (Chromium, real keychain)', () => {
  let browser: Browser;
  let as: AuthorizationServerFixture;
  let good: ProtectedMcpServerFixture;
  let misdescribed: ProtectedMcpServerFixture;
  let scratch: string;
  let openedFile: string;
  let app: RunningWebApp;
  let page: Page;
  const received: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    as = await startAuthorizationServer();
    good = await startProtectedMcpServer({ name: 'good', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
    // Its metadata names another resource: sign-in must refuse before any authorization request (O3).
    misdescribed = await startProtectedMcpServer({ name: 'bad', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE, prm: { resource: 'https://elsewhere.example/mcp' } });
    scratch = await mkdtemp(join(tmpdir(), 'sb-signin-e2e-'));
    openedFile = join(scratch, 'opened.txt');
    const recorder = join(scratch, 'browser.sh');
    await writeFile(recorder, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedFile}'\n`);
    await chmod(recorder, 0o700);
    const saved = { BROWSER: process.env.BROWSER, DISPLAY: process.env.DISPLAY, XDG_CURRENT_DESKTOP: process.env.XDG_CURRENT_DESKTOP };
    // The spawned web app copies this environment: xdg-open then hands URLs to the recorder.
    process.env.BROWSER = recorder;
    delete process.env.DISPLAY;
    delete process.env.XDG_CURRENT_DESKTOP;
    try {
      const servers = { servers: { good: { url: good.url, transport: 'streamable-http' }, bad: { url: misdescribed.url, transport: 'streamable-http' } } };
      app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify(servers)));
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => received.push(String(payload))));
    await page.goto(app.url);
  });
  afterAll(async () => {
    await app?.stop();
    await browser?.close();
    await good?.close();
    await misdescribed?.close();
    await as?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  const row = (name: string) => page.locator(`[data-server="${name}"]`);
  const actions = (name: string) => page.locator(`[data-auth-server="${name}"]`);
  /** Sign-in lives in a server's details (issue 23): open them once per server. */
  const openDetails = async (name: string) => {
    const toggle = page.getByRole('button', { name: `Details of ${name}` });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  };
  const opened = async () => (await readFile(openedFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);

  it('a server that needs sign-in shows Sign in; Cancel shows while the flow waits and ends it', async () => {
    await expect.poll(() => row('good').getAttribute('data-state'), { timeout: 20_000 }).toBe('needs_auth');
    await openDetails('good');
    await actions('good').getByRole('button', { name: 'Sign in' }).click();
    const cancel = actions('good').getByRole('button', { name: 'Cancel sign-in' });
    await cancel.waitFor();
    await expect.poll(opened, { timeout: 20_000 }).toHaveLength(1);
    expect(await actions('good').getByRole('button', { name: 'Sign out' }).isDisabled()).toBe(true);
    await cancel.click();
    await actions('good').getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await actions('good').getByRole('alert').count()).toBe(0);
    expect(await row('good').getAttribute('data-state')).toBe('needs_auth');
  });

  it('signs in through the browser step: the server connects and Sign in gives way to Sign out', async () => {
    await actions('good').getByRole('button', { name: 'Sign in' }).click();
    await actions('good').getByRole('button', { name: 'Cancel sign-in' }).waitFor();
    await expect.poll(opened, { timeout: 20_000 }).toHaveLength(2);
    const authorizeUrl = (await opened())[1]!;
    expect(authorizeUrl.startsWith(`${as.issuer}/`)).toBe(true);
    const player = new HeadlessBrowser();
    await player.open(authorizeUrl);
    const landing = await player.lastLanding();
    expect(landing.body).toContain('Signed in to good — you can close this tab.');
    await expect.poll(() => row('good').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
    await actions('good').getByRole('button', { name: 'Cancel sign-in' }).waitFor({ state: 'detached' });
    expect(await actions('good').getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await page.screenshot({ path: 'test-results/remote-auth-signed-in.png' });

    // No token ever reached the page.
    const tokens = good.authorizations.map((h) => h.replace(/^Bearer /, ''));
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(received.filter((f) => f.includes(token))).toEqual([]);

    await actions('good').getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => row('good').getAttribute('data-state'), { timeout: 20_000 }).toBe('needs_auth');
    await actions('good').getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('shows a refused sign-in exactly as the core words it', async () => {
    await expect.poll(() => row('bad').getAttribute('data-state'), { timeout: 20_000 }).toBe('needs_auth');
    await openDetails('bad');
    const before = (await opened()).length;
    await actions('bad').getByRole('button', { name: 'Sign in' }).click();
    const alert = actions('bad').getByRole('alert');
    await alert.waitFor();
    const shown = await alert.innerText();
    expect(shown).toContain('bad');
    const answers = received.map((f) => JSON.parse(f) as { type: string; result?: { ok: boolean; error?: { message: string } } });
    expect(answers.some((a) => a.type === 'result' && a.result?.ok === false && a.result.error?.message === shown)).toBe(true);
    expect(await opened()).toHaveLength(before);
    await page.screenshot({ path: 'test-results/remote-auth-refused.png' });
  });
});
