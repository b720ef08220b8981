import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const missing = chromiumMissingReason();
if (missing) console.warn(`sandbox refusal e2e skipped: ${missing}`);
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 60_000 });
/** Reads, writes or connects where it is told; its failure is its result's text. */
const PROBE = resolve('test/fixtures/bundles/probe/server/index.js');

/** SECURITY X1 in the browser: a refusal a tool call meets is shown beside the call and on the row, with Allow. */
describe.skipIf(missing !== undefined)('a sandbox refusal during a tool call (web mode, Chromium, bubblewrap)', () => {
  let browser: Browser;
  let app: RunningWebApp | undefined;
  let person = '';
  beforeAll(async () => {
    browser = await launchChromium();
    app = await startWebApp(async (home) => {
      // The person's home lies outside the data home: nothing inside that is ever granted.
      person = await mkdtemp(join(tmpdir(), 'sb-e2e-person-'));
      await writeFile(join(person, '.netrc'), 'machine example.com password hunter2');
      // The person's own entry: approval auto is theirs to set, so the run needs no dialog.
      const servers = { probe: { command: process.execPath, args: [PROBE], env: { HOME: person }, sandboxEnabled: true, approval: 'auto' } };
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }, null, 2));
    });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await browser?.close();
    if (person) await rm(person, { recursive: true, force: true });
  });

  /** From a freshly connected row: its tools, the probe's runner, JSON arguments, Run. */
  async function runProbe(page: Page, args: unknown): Promise<void> {
    await page.locator('[data-server="probe"][data-state="connected"]').waitFor({ timeout: 60_000 });
    const tools = page.getByRole('region', { name: 'Tools of probe' });
    if (!(await tools.isVisible())) await page.locator('[data-server="probe"]').getByRole('button', { name: 'Tools', exact: true }).click();
    const row = page.locator('[data-tool="probe__probe"]');
    await row.waitFor({ timeout: 60_000 });
    const runner = row.getByTestId('tool-runner');
    if (!(await runner.isVisible())) await row.getByRole('button', { name: 'Run probe' }).click();
    await runner.waitFor({ timeout: 60_000 });
    await runner.getByRole('button', { name: 'JSON' }).click();
    await runner.locator('textarea').fill(JSON.stringify(args));
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
  }

  it('says "blocked by the sandbox: read ~/.netrc" beside the call and on the row; Allow grants it and the call then works', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1000 } });
    await page.goto(app!.url);
    await runProbe(page, { op: 'read', target: join(person, '.netrc') });
    // The row says it runs sandboxed, at a glance (its grants are in the details).
    expect(await page.locator('[data-server="probe"] .badges').innerText()).toContain('sandboxed');
    const beside = page.getByTestId('run-output').getByTestId('call-sandbox-denial');
    await poll(() => beside.locator('strong').textContent()).toBe('blocked by the sandbox: read ~/.netrc');
    const onRow = page.locator('[data-server="probe"]').getByTestId('sandbox-denial');
    await poll(() => onRow.locator('strong').textContent()).toBe('blocked by the sandbox: read ~/.netrc');
    await page.screenshot({ path: 'test-results/sandbox-call-refusal.png', fullPage: true });

    await beside.getByRole('button', { name: 'Allow' }).click();
    await poll(async () => JSON.parse(await readFile(join(app!.home, 'servers.json'), 'utf8')).servers.probe.sandbox).toEqual({ filesystem: { allowRead: [join(person, '.netrc')] } });
    await poll(() => onRow.count()).toBe(0);
    await runProbe(page, { op: 'read', target: join(person, '.netrc') });
    await poll(() => page.getByTestId('run-output').textContent()).toContain('machine example.com password hunter2');
  }, 120_000);
});
