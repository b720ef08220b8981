/**
 * Failure classes in the real UI: the servers view shows a missing command as "Needs a fix" with
 * the fix, and a tool run that times out as "Temporary" with what to do; "Diagnostics" downloads
 * the zip, with no secret in it. Built web mode, Chromium.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { strFromU8, unzipSync } from 'fflate';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp } from './support/web-app';

const toolbox = join(process.cwd(), 'test/fixtures/servers/toolbox.mjs');
const missing = chromiumMissingReason();
if (missing) console.warn(`diagnosis e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('failure classes in web mode (Chromium)', { timeout: 90_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the class and the fix of a server that cannot start and of a tool run that timed out', async () => {
    const servers = {
      missing: { command: 'switchboard-no-such-command' },
      box: { command: process.execPath, args: [toolbox], toolTimeout: 1, approval: 'auto' },
    };
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers })));
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    try {
      await page.goto(app.url);
      const row = page.locator('[data-server="missing"]');
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('error');
      const note = row.getByTestId('diagnosis');
      expect(await note.getAttribute('data-class')).toBe('terminal');
      expect(await note.innerText()).toMatch(/^Needs a fix\s+Fix: install switchboard-no-such-command \(for npx: install Node\.js\), or put its full path in "command"/);
      await mkdir('test-results', { recursive: true });
      await row.screenshot({ path: 'test-results/diagnosis-server-row.png' });

      const box = page.locator('[data-server="box"]');
      await expect.poll(() => box.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      expect(await box.getByTestId('diagnosis').count()).toBe(0);
      await box.getByRole('button', { name: 'Tools', exact: true }).click();
      const sleep = page.locator('[data-tool="box__sleep"]');
      await sleep.getByRole('button', { name: 'Run sleep' }).click();
      const runner = sleep.getByTestId('tool-runner');
      await runner.getByLabel('ms *').fill('3000');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      const output = sleep.getByTestId('run-output');
      await expect.poll(() => output.getAttribute('data-outcome'), { timeout: 20_000 }).toBe('failed');
      expect(await output.getByTestId('run-error').innerText()).toBe('tool "sleep" on server "box" timed out after 1 s without progress; cancelled');
      const runNote = output.getByTestId('diagnosis');
      expect(await runNote.getAttribute('data-class')).toBe('transient');
      expect(await runNote.innerText()).toMatch(/^Temporary\s+Fix: try again; if it keeps timing out, raise "toolTimeout" for "box" \(now 1 s\)$/);
      await sleep.screenshot({ path: 'test-results/diagnosis-tool-run.png' });
    } finally {
      await page.close();
      await app.stop();
    }
  });

  it('downloads the diagnostics zip from the servers view, without the secrets of the config', async () => {
    const canary = `CANARY-${randomBytes(8).toString('hex')}`;
    const servers = { box: { command: process.execPath, args: [toolbox, '--print-env', 'API_TOKEN'], env: { API_TOKEN: canary } } };
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers })));
    const page = await browser.newPage({ viewport: { width: 1100, height: 500 }, acceptDownloads: true });
    try {
      await page.goto(app.url);
      await expect.poll(() => page.locator('[data-server="box"]').getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Diagnostics', exact: true }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^switchboard-diagnostics-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.zip$/);
      const path = join(app.home, 'downloaded.zip');
      await file.saveAs(path);
      const files = Object.fromEntries(Object.entries(unzipSync(await readFile(path))).map(([name, bytes]) => [name, strFromU8(bytes)]));
      expect(Object.keys(files).sort()).toEqual(['about.json', 'logs/servers/box.log', 'logs/switchboard.log', 'servers.json']);
      for (const [name, text] of Object.entries(files)) expect(text, name).not.toContain(canary);
      expect(files['logs/servers/box.log']).toContain('API_TOKEN=[redacted]');
      await mkdir('test-results', { recursive: true });
      await page.locator('section.servers > header').screenshot({ path: 'test-results/diagnosis-export-button.png' });
    } finally {
      await page.close();
      await app.stop();
    }
  });
});
