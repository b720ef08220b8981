// Issue 23 item 3: a first start that outlasts its timeout while the package manager downloads shows that
// progress on its row and in its Logs, and is not cut off at the timeout while it is busy. Real web mode,
// a fixture "package manager" printing npm's fetch lines before it runs server-everything, real Chromium.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { pageFor } from './support/page-for';
import { startWebApp, type RunningWebApp } from './support/web-app';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const packageManager = join(process.cwd(), 'test/fixtures/servers/slow-package-manager.mjs');
const FETCH_LINE = /npm http fetch GET 200 https:\/\/registry\.npmjs\.org\/fixture-dep-\d+/;
const missing = chromiumMissingReason();
if (missing) console.warn(`first-run e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('a slow first start in the servers view (web mode, Chromium)', () => {
  let browser: Browser;
  let app: RunningWebApp;
  beforeAll(async () => {
    browser = await launchChromium();
    // Downloads for 8 s against a 2 s timeout: only the allowance for a busy start lets it connect.
    app = await startWebApp(async (home) =>
      writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { pkg: { command: process.execPath, args: [packageManager, 'progress', '8', everything], timeout: 2 } } })),
    );
  });
  afterAll(async () => {
    await app?.stop();
    await browser?.close();
  });

  it('shows the package manager’s progress on the row and in Logs while it starts, then connects past its timeout', { timeout: 90_000 }, async () => {
    await pageFor(browser.newPage({ viewport: { width: 1280, height: 900 } }), async (page) => {
      await page.goto(app.url);
      const row = page.locator('[data-server="pkg"]');
      await row.waitFor();
      await expect.poll(() => row.innerText(), { timeout: 30_000 }).toMatch(FETCH_LINE);
      expect(await row.getAttribute('data-state')).toBe('connecting');
      await row.getByRole('button', { name: 'Logs', exact: true }).click();
      await expect.poll(() => page.getByRole('region', { name: 'Logs of pkg' }).getByTestId('server-stderr').innerText(), { timeout: 30_000 }).toMatch(FETCH_LINE);
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 60_000 }).toBe('connected');
    });
  });
});
