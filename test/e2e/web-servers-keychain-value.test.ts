import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp } from './support/web-app';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const missing =
  chromiumMissingReason() ?? (process.env.SWITCHBOARD_TEST_KEYCHAIN === '1' ? undefined : 'SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh');
if (missing) console.warn(`"Store in keychain" e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('"Store in keychain" in the server form (Chromium, real keychain)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('moves a typed env value into the keychain, the config holds only a reference, and the server connects with it', async () => {
    const canary = `ghp_form_canary_${randomBytes(8).toString('hex')}`;
    const app = await startWebApp();
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
      const received: string[] = [];
      page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => received.push(String(payload))));
      await page.goto(app.url);
      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByLabel('Name', { exact: true }).fill('gh');
      await form.getByLabel('Command', { exact: true }).fill(process.execPath);
      await form.getByRole('button', { name: 'Add argument' }).click();
      await form.getByLabel('Argument 1', { exact: true }).fill(everything);
      await form.getByRole('button', { name: 'Add argument' }).click();
      await form.getByLabel('Argument 2', { exact: true }).fill('stdio');
      await form.getByRole('button', { name: 'Add variable' }).click();
      await form.getByLabel('variable 1 name', { exact: true }).fill('GITHUB_TOKEN');
      await form.getByLabel('variable 1 value', { exact: true }).fill(canary);

      await form.getByRole('button', { name: 'Store variable 1 in the keychain' }).click();
      const value = form.getByLabel('variable 1 value', { exact: true });
      await expect.poll(() => value.inputValue()).toBe('${secret:gh-GITHUB_TOKEN}');
      // A reference is not offered again.
      expect(await form.getByRole('button', { name: 'Store variable 1 in the keychain' }).count()).toBe(0);
      await page.screenshot({ path: 'test-results/servers-form-keychain-value.png' });

      await form.getByRole('button', { name: 'Add server' }).click();
      // An unset secret would leave it in error ("secret … is not set"): connected means the keychain answered.
      await expect.poll(() => page.locator('[data-server="gh"]').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
      const written = await readFile(join(app.home, 'servers.json'), 'utf8');
      expect(JSON.parse(written).servers.gh.env).toEqual({ GITHUB_TOKEN: '${secret:gh-GITHUB_TOKEN}' });
      expect(written).not.toContain(canary);
      expect(received.join('\n')).not.toContain(canary);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Secrets' }).click();
      await expect.poll(() => page.getByText('gh-GITHUB_TOKEN', { exact: true }).count()).toBe(1);
      expect(await page.content()).not.toContain(canary);
    } finally {
      await app.stop();
    }
  });
});
