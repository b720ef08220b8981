/**
 * MCP Apps through the real UI: the built web mode, real app servers from npm over stdio, Chromium.
 * A Run from the tools panel shows the tool's app beside its result; the app's own tool calls go
 * through the one call path and the approval dialog, which says an app asked.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const missing = chromiumMissingReason();
if (missing) console.warn(`MCP Apps e2e skipped: ${missing}`);
const pkg = (name: string) => resolve(`node_modules/@modelcontextprotocol/${name}/dist/index.js`);

describe.skipIf(missing !== undefined)('MCP Apps in the tools panel (web mode, Chromium)', { timeout: 150_000 }, () => {
  let browser: Browser;
  let app: RunningWebApp;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    app = await startWebApp(async (home) =>
      writeFile(
        join(home, 'servers.json'),
        JSON.stringify({
          servers: {
            basic: { command: process.execPath, args: [pkg('server-basic-svelte'), '--stdio'], approval: 'auto' },
            monitor: { command: process.execPath, args: [pkg('server-system-monitor'), '--stdio'] },
          },
        }),
      ),
    );
    page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    await page.goto(app.url);
  });
  afterAll(async () => {
    await page?.close();
    await app?.stop();
    await browser?.close();
  });

  async function runFromPanel(server: string, tool: string): Promise<void> {
    const row = page.locator(`[data-server="${server}"]`);
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 60_000 }).toBe('connected');
    await row.getByRole('button', { name: 'Tools', exact: true }).click();
    const entry = page.locator(`[data-tool="${server}__${tool}"]`);
    await entry.getByRole('button', { name: `Run ${tool}` }).click();
    await entry.getByTestId('tool-runner').getByRole('button', { name: 'Run', exact: true }).click();
  }

  it('shows server-basic-svelte\'s app with the result of a Run, in its own sandbox origin', async () => {
    await runFromPanel('basic', 'get-time');
    const frame = page.locator('[data-tool="basic__get-time"] [data-testid="app-frame"]');
    await expect.poll(() => frame.getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    const src = await frame.locator('iframe').getAttribute('src');
    expect(new URL(src!).origin).not.toBe(new URL(app.url).origin);
    // The app itself renders the time it was given (real content, not a placeholder).
    const inner = page.frameLocator('[data-tool="basic__get-time"] [data-testid="app-frame"] iframe').frameLocator('iframe');
    await expect.poll(async () => (await inner.locator('body').innerText()).length, { timeout: 30_000 }).toBeGreaterThan(10);
    await mkdir('test-results', { recursive: true });
    await page.locator('[data-tool="basic__get-time"]').screenshot({ path: 'test-results/mcp-app-basic-svelte.png' });
  });

  it('asks the person when server-system-monitor\'s app calls its app-only tool, saying an app asked', async () => {
    await runFromPanel('monitor', 'get-system-info');
    const dialog = page.getByTestId('approval-dialog');
    // First the Run itself (the person asked from the panel)…
    await expect.poll(() => dialog.getByTestId('approval-origin').getAttribute('data-origin'), { timeout: 30_000 }).toBe('person');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    // …then the app's own poll of poll-system-stats, which the model is never offered.
    await expect.poll(() => dialog.getByTestId('approval-origin').getAttribute('data-origin'), { timeout: 60_000 }).toBe('app');
    expect(await dialog.getByTestId('approval-origin').innerText()).toBe('The app from monitor asked for this call (an MCP App shown in a card), not the model.');
    expect(await dialog.locator('h2').innerText()).toContain('poll-system-stats');
    await page.screenshot({ path: 'test-results/mcp-app-approval.png' });
    await dialog.getByRole('button', { name: /Always allow this tool/ }).click();
    const frame = page.locator('[data-tool="monitor__get-system-info"] [data-testid="app-frame"]');
    await expect.poll(() => frame.getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    await page.waitForTimeout(2000);
    await page.locator('[data-tool="monitor__get-system-info"]').screenshot({ path: 'test-results/mcp-app-system-monitor.png' });
  });
});

describe.skipIf(missing !== undefined)('an app that piles up requests (web mode, Chromium, SECURITY U7)', { timeout: 150_000 }, () => {
  let browser: Browser;
  let app: RunningWebApp;
  beforeAll(async () => {
    browser = await launchChromium();
    app = await startWebApp(async (home) =>
      writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { hostile: { command: process.execPath, args: [resolve('test/fixtures/servers/hostile-app.mjs')] } } })),
    );
  });
  afterAll(async () => {
    await app?.stop();
    await browser?.close();
  });

  /** A tab that runs the hostile server's pile-up app from the tools panel (the Run itself allowed once). */
  async function pileUp(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    await page.goto(app.url);
    const row = page.locator('[data-server="hostile"]');
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 60_000 }).toBe('connected');
    await row.getByRole('button', { name: 'Tools', exact: true }).click();
    const entry = page.locator('[data-tool="hostile__show-pile-up"]');
    await entry.getByRole('button', { name: 'Run show-pile-up' }).click();
    await entry.getByTestId('tool-runner').getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByTestId('approval-dialog');
    await expect.poll(() => dialog.getByTestId('approval-origin').getAttribute('data-origin'), { timeout: 30_000 }).toBe('person');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    return page;
  }

  it('holds 8 of an app’s 20 approval requests, refuses the rest at once, and denies all 8 with one click', async () => {
    const page = await pileUp();
    const dialog = page.getByTestId('approval-dialog');
    await expect.poll(() => dialog.getByTestId('approval-origin').getAttribute('data-origin'), { timeout: 60_000 }).toBe('app');
    await expect.poll(() => dialog.locator('.queue').innerText(), { timeout: 30_000 }).toBe('7 more waiting after this one');
    await page.screenshot({ path: 'test-results/mcp-app-deny-all.png' });
    await dialog.getByTestId('deny-app-requests').click();
    await expect.poll(() => dialog.count(), { timeout: 30_000 }).toBe(0);
    const note = page.locator('[data-tool="hostile__show-pile-up"] [data-testid="app-note"] .text');
    await expect.poll(() => note.count(), { timeout: 30_000 }).toBe(1);
    const said = JSON.parse(await note.innerText()) as string[];
    expect(said).toHaveLength(20);
    expect(said.filter((s) => s.includes('already has 8 requests waiting; this one was refused'))).toHaveLength(12);
    expect(said.filter((s) => s.startsWith('error: ') && s.endsWith('was cancelled before it started'))).toHaveLength(8);
    await page.close();
  });

  it('withdraws an app’s waiting approvals when its tab closes, so no other tab is left asking', async () => {
    const watcher = await browser.newPage();
    await watcher.goto(app.url);
    const page = await pileUp();
    const dialog = page.getByTestId('approval-dialog');
    await expect.poll(() => dialog.locator('.queue').innerText(), { timeout: 60_000 }).toBe('7 more waiting after this one');
    // Another tab of the same Switchboard sees the same 8 waiting.
    await expect.poll(() => watcher.getByTestId('approval-dialog').locator('.queue').innerText(), { timeout: 30_000 }).toBe('7 more waiting after this one');
    await page.close();
    await expect.poll(() => watcher.getByTestId('approval-dialog').count(), { timeout: 30_000 }).toBe(0);
    await watcher.close();
  });
});
