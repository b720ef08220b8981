import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const missing = chromiumMissingReason() ?? (hasKeychain ? undefined : 'SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh');
if (missing) console.warn(`web secrets page e2e skipped: ${missing}`);

// Random canaries: seen anywhere they should not be, they can only have leaked there.
const TYPED = `typed_canary_${randomBytes(10).toString('hex')}`;
const PLAIN_TOKEN = `ghp_canary_${randomBytes(10).toString('hex')}`;
const PLAIN_BEARER = `bearer_canary_${randomBytes(10).toString('hex')}`;

const config = JSON.stringify(
  {
    servers: {
      ev: { command: process.execPath, args: [everything, 'stdio'], env: { GITHUB_TOKEN: PLAIN_TOKEN } },
      api: { url: 'http://127.0.0.1:9/mcp', enabled: false, headers: { Authorization: `Bearer ${PLAIN_BEARER}` } },
    },
  },
  null,
  2,
);

interface Frames {
  sent: string[];
  received: string[];
}

describe.skipIf(missing !== undefined)('Secrets page in web mode (Chromium, real keychain)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(app: RunningWebApp): Promise<{ page: Page; frames: Frames }> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
    const frames: Frames = { sent: [], received: [] };
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('websocket', (ws) => {
      ws.on('framesent', ({ payload }) => frames.sent.push(String(payload)));
      ws.on('framereceived', ({ payload }) => frames.received.push(String(payload)));
    });
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Secrets' }).click();
    await page.getByRole('heading', { name: 'Secrets', exact: true }).waitFor();
    expect(pageErrors).toEqual([]);
    return { page, frames };
  }

  /** The DOM as markup plus every input's live value (a typed value lives in the property, not the markup). */
  const pageText = (page: Page) =>
    page.evaluate(() => document.documentElement.outerHTML + [...document.querySelectorAll('input')].map((i) => i.value).join('\n'));

  it('adds a secret: only its name is listed, the value leaves the page once and never comes back', async () => {
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), config));
    try {
      const { page, frames } = await open(app);
      await page.getByText('No secrets stored yet.').waitFor();
      expect(await page.locator('.explain').innerText()).toBe(
        "Write ${secret:NAME} in a server's env or header values; Switchboard reads the value from the OS keychain when the server starts.",
      );
      const form = page.getByRole('form', { name: 'Add a secret' });
      await form.getByLabel('Name').fill('MY_API_KEY');
      await form.getByLabel('Value').fill(TYPED);
      expect(await form.getByLabel('Value').getAttribute('type')).toBe('password');
      await form.getByRole('button', { name: 'Add secret' }).click();

      const list = page.getByRole('list', { name: 'Stored secrets' });
      await expect.poll(() => list.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('MY_API_KEY')]);
      expect(await page.getByRole('form', { name: 'Add a secret' }).getByLabel('Value').inputValue()).toBe('');
      expect(await pageText(page)).not.toContain(TYPED);

      // Replace: a new value goes in, the list still shows the name only.
      const REPLACED = `${TYPED}_2`;
      await list.getByRole('button', { name: 'Replace' }).click();
      await page.getByRole('form', { name: 'Replace MY_API_KEY' }).getByLabel('New value for MY_API_KEY').fill(REPLACED);
      await page.getByRole('form', { name: 'Replace MY_API_KEY' }).getByRole('button', { name: 'Replace' }).click();
      await page.getByRole('form', { name: 'Replace MY_API_KEY' }).waitFor({ state: 'detached' });
      expect(await pageText(page)).not.toContain(TYPED);

      // Each value crossed the socket exactly once, outbound; nothing inbound ever carried it.
      expect(frames.sent.filter((f) => f.includes(TYPED) && !f.includes(REPLACED))).toHaveLength(1);
      expect(frames.sent.filter((f) => f.includes(REPLACED))).toHaveLength(1);
      expect(frames.received.length).toBeGreaterThan(3);
      expect(frames.received.filter((f) => f.includes(TYPED))).toEqual([]);
      expect(app.output()).not.toContain(TYPED);

      await mkdir('test-results', { recursive: true });
      await page.screenshot({ path: 'test-results/secrets-page.png', fullPage: true });

      // Delete asks first, then the name is gone.
      await list.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('Delete MY_API_KEY from the keychain?').waitFor();
      await list.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No secrets stored yet.').waitFor();
    } finally {
      await app.stop();
    }
  });

  it('moves plain secrets out of servers.json: names and keys shown, values never; the server reconnects with the secret', async () => {
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), config));
    try {
      const { page, frames } = await open(app);
      await page.getByRole('button', { name: 'Look for plain secrets' }).click();
      const found = page.getByRole('list', { name: 'Plain secrets found' }).getByRole('listitem');
      await expect.poll(() => found.allInnerTexts()).toEqual([expect.stringMatching(/ev\s+env\.GITHUB_TOKEN/), expect.stringMatching(/api\s+headers\.Authorization/)]);
      expect(await page.getByLabel('Secret name for env.GITHUB_TOKEN of ev').inputValue()).toBe('ev-GITHUB_TOKEN');
      await page.getByLabel('Secret name for headers.Authorization of api').fill('api-bearer');
      await page.screenshot({ path: 'test-results/secrets-page-plain.png', fullPage: true });

      await page.getByRole('button', { name: 'Move 2 to the keychain' }).click();
      const status = page.getByRole('status');
      await expect.poll(() => status.innerText()).toBe('Moved 2 secrets into the keychain: ev-GITHUB_TOKEN, api-bearer.');
      const list = page.getByRole('list', { name: 'Stored secrets' });
      await expect.poll(() => list.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('api-bearer'), expect.stringContaining('ev-GITHUB_TOKEN')]);

      const written = await readFile(join(app.home, 'servers.json'), 'utf8');
      expect(JSON.parse(written)).toMatchObject({
        servers: { ev: { env: { GITHUB_TOKEN: '${secret:ev-GITHUB_TOKEN}' } }, api: { headers: { Authorization: 'Bearer ${secret:api-bearer}' } } },
      });
      expect((await readdir(app.home)).filter((n) => n.includes('.bak-'))).toEqual([]);

      // The server restarted with the reference resolved and is connected.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers' }).click();
      await expect.poll(() => page.locator('[data-server="ev"]').getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');

      for (const canary of [PLAIN_TOKEN, PLAIN_BEARER]) {
        expect(frames.sent.filter((f) => f.includes(canary))).toEqual([]);
        expect(frames.received.filter((f) => f.includes(canary))).toEqual([]);
        expect(await pageText(page)).not.toContain(canary);
        expect(written).not.toContain(canary);
        expect(app.output()).not.toContain(canary);
      }

      // The keyring outlives this app within one with-keychain run: leave it as found.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Secrets' }).click();
      for (const name of ['api-bearer', 'ev-GITHUB_TOKEN']) {
        const item = page.locator(`[data-secret="${name}"]`);
        await item.getByRole('button', { name: 'Delete' }).click();
        // The second click must reach the confirmation's button, not the first one before it is replaced.
        await item.getByText(`Delete ${name} from the keychain?`).waitFor();
        await item.getByRole('button', { name: 'Delete' }).click();
        await item.waitFor({ state: 'detached' });
      }
      await page.getByText('No secrets stored yet.').waitFor();
    } finally {
      await app.stop();
    }
  });

  it('without a keychain, shows the core\'s own error message and rewrites nothing', async () => {
    // The web app inherits this process's environment: without the session bus there is no Secret Service.
    const bus = process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    let app: RunningWebApp;
    try {
      app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), config));
    } finally {
      process.env.DBUS_SESSION_BUS_ADDRESS = bus;
    }
    try {
      const { page, frames } = await open(app);
      const alert = page.getByRole('alert').first();
      await alert.waitFor();
      const shown = await alert.innerText();
      expect(shown).toMatch(/^the OS keychain is not available \(.+\); on Linux, Switchboard needs a Secret Service such as gnome-keyring or KWallet running and unlocked$/s);
      // Exactly what the core answered, not a paraphrase.
      const answers = frames.received.map((f) => JSON.parse(f) as { type: string; result?: { ok: boolean; error?: { message: string } } });
      expect(answers.some((a) => a.type === 'result' && a.result?.ok === false && a.result.error?.message === shown)).toBe(true);
      await page.screenshot({ path: 'test-results/secrets-page-no-keychain.png', fullPage: true });

      await page.getByRole('button', { name: 'Look for plain secrets' }).click();
      await expect.poll(() => page.locator('.plain [role="alert"]').innerText()).toBe(shown);
      expect(await readFile(join(app.home, 'servers.json'), 'utf8')).toBe(config);
    } finally {
      await app.stop();
    }
  }, 60_000);
});
