/**
 * The Permissions page end to end: an "Always allow this tool" given in the approval dialog and an
 * allow rule are listed with when they were given; revoking the tool's makes the next Run ask again.
 * Built web mode, real toolbox server over stdio, Chromium.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp } from './support/web-app';

const toolbox = join(process.cwd(), 'test/fixtures/servers/toolbox.mjs');
const missing = chromiumMissingReason();
if (missing) console.warn(`permissions page e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('the Permissions page in web mode (Chromium)', { timeout: 90_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const dialog = (page: Page) => page.getByTestId('approval-dialog');
  const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

  /** Run `pid` from the tools panel; returns once it shows its output or the approval dialog. */
  async function runPid(page: Page): Promise<'asked' | 'ran'> {
    const pid = page.locator('[data-tool="box__pid"]');
    if (!(await pid.getByTestId('tool-runner').isVisible())) await pid.getByRole('button', { name: 'Run pid' }).click();
    const runner = pid.getByTestId('tool-runner');
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await page.locator('[data-testid="approval-dialog"], [data-tool="box__pid"] [data-testid="run-output"]').first().waitFor({ timeout: 20_000 });
    return (await dialog(page).isVisible()) ? 'asked' : 'ran';
  }

  it('lists a tool grant and an allow rule with their dates; revoking the grant makes the next run ask', async () => {
    const settings = { provider: 'openai-compatible', baseUrl: '', model: 'm', autoAllowReadOnly: false, rules: [{ pattern: 'box__e*', effect: 'allow' }], ruleAddedAt: { 'allow box__e*': Date.UTC(2026, 10, 1, 9, 30) } };
    const app = await startWebApp(async (home) => {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { box: { command: process.execPath, args: [toolbox] } } }));
      await writeFile(join(home, 'chat-settings.json'), JSON.stringify(settings));
    });
    const page = await browser.newPage({ viewport: { width: 1100, height: 700 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      await page.goto(app.url);
      const row = page.locator('[data-server="box"]');
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      await row.getByRole('button', { name: 'Tools', exact: true }).click();
      expect(await runPid(page)).toBe('asked');
      await dialog(page).getByRole('button', { name: 'Always allow this tool' }).click();
      await page.locator('[data-tool="box__pid"] [data-testid="run-output"]').waitFor();
      expect(await runPid(page)).toBe('ran');

      await nav(page, 'Permissions');
      const toolGrant = page.locator('[data-grant="tool:box/pid"]');
      await toolGrant.waitFor();
      const today = new Date().toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
      expect(await toolGrant.innerText()).toContain(`given ${today}`);
      const rule = page.locator('[data-grant="rule:box__e*"]');
      expect(await rule.innerText()).toContain('given Nov 1, 2026');
      await mkdir('test-results', { recursive: true });
      await page.screenshot({ path: 'test-results/permissions-page.png' });

      await page.getByRole('button', { name: 'Revoke always allow for pid on box' }).click();
      await toolGrant.waitFor({ state: 'detached' });
      expect(await rule.isVisible()).toBe(true);

      // The servers page is built afresh: its tools panel opens again from the row.
      await nav(page, 'Servers');
      await page.locator('[data-server="box"]').getByRole('button', { name: 'Tools', exact: true }).click();
      await page.locator('[data-tool="box__pid"]').getByRole('button', { name: 'Run pid' }).waitFor({ timeout: 30_000 });
      expect(await runPid(page)).toBe('asked');
      await dialog(page).getByRole('button', { name: 'Deny' }).click();
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await app.stop();
    }
  });
});
