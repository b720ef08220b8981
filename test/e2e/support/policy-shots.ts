/**
 * Screenshots of the administrator's policy on screen (SECURITY X2), light and dark, 1280 and 860 wide:
 *   npm run build && npx tsx test/e2e/support/policy-shots.ts <folder>
 * A policy that locks approvals, requires the sandbox and turns installs off: the servers (a server set to auto,
 * its edit form), Browse, the Settings page, the model settings with a new allow rule, Permissions; then the
 * same file broken, atop the servers.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { startWebApp } from './web-app';

const folder = process.argv[2];
if (!folder) throw new Error('usage: tsx test/e2e/support/policy-shots.ts <folder>');
const toolbox = resolve('test/fixtures/servers/toolbox.mjs');
const policyFile = (home: string) => join(home, 'policy.json');

const app = await startWebApp(
  async (home) => {
    await writeFile(policyFile(home), JSON.stringify({ approvals: 'always-ask', sandbox: 'required', installs: 'off' }));
    const servers = { notes: { command: 'node', args: [toolbox], approval: 'auto' }, typed: { command: 'node', args: [toolbox], enabled: false } };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }, null, 2));
    await writeFile(join(home, 'approval-settings.json'), JSON.stringify({ autoAllowReadOnly: false, rules: [{ pattern: 'notes__*', effect: 'allow' }] }));
  },
  [],
  (home) => ({ SWITCHBOARD_POLICY: policyFile(home) }),
);
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const scenes: { name: string; show: (page: Page) => Promise<void> }[] = [
  { name: 'servers', show: async (page) => void (await page.getByTestId('auto-overridden').waitFor()) },
  {
    name: 'edit-form',
    show: async (page) => {
      await page.getByRole('button', { name: 'More actions for notes' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await page.getByTestId('approval-locked').waitFor();
    },
  },
  {
    name: 'details',
    show: async (page) => {
      await page.getByRole('button', { name: 'Details of notes' }).click();
      await page.getByTestId('details-auto-overridden').waitFor();
    },
  },
  { name: 'paste', show: async (page) => void (await page.getByRole('button', { name: 'Paste JSON', exact: true }).click(), await page.getByTestId('paste-policy').waitFor()) },
  { name: 'browse', show: async (page) => void (await page.getByRole('button', { name: 'Browse', exact: true }).click()) },
  { name: 'settings', show: async (page) => void (await nav(page, 'Settings'), await page.getByTestId('policy-summary').waitFor()) },
  {
    name: 'model-settings',
    show: async (page) => {
      await nav(page, 'Chat');
      await page.getByRole('button', { name: 'Model settings', exact: true }).click();
      await page.getByRole('textbox', { name: 'Approval rules' }).fill('notes__*: allow\ngithub__*: allow');
    },
  },
  { name: 'permissions', show: async (page) => void (await nav(page, 'Permissions'), await page.getByTestId('grants-locked').waitFor()) },
];

const browser = await launchChromium();
try {
  await mkdir(folder, { recursive: true });
  const shoot = async (name: string, show: (page: Page) => Promise<void>) => {
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [1280, 860]) {
        const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme: scheme });
        await page.goto(app.url);
        await page.locator('[data-server="notes"]').waitFor();
        await show(page);
        const path = resolve(folder, `policy-${name}-${scheme}-${width}.png`);
        await page.screenshot({ path, fullPage: true });
        console.log(path);
        await page.close();
      }
    }
  };
  for (const scene of scenes) await shoot(scene.name, scene.show);
  await writeFile(policyFile(app.home), '{ "approvals": "always-ask",');
  await shoot('broken', async (page) => {
    await page.getByRole('button', { name: 'Reconnect all' }).click();
    await page.getByTestId('policy-broken').waitFor();
    await page.locator('[data-server="notes"][data-state="error"]').waitFor();
  });
} finally {
  await browser.close();
  await app.stop();
}
