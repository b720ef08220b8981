/**
 * The administrator's policy on screen (SECURITY X2), end to end: built web mode, a policy file in the test's
 * own folder (SWITCHBOARD_POLICY), Chromium. Locked approvals show where they are set — the Settings page, the
 * model settings' rules, the Permissions page, a server's row and edit form — installs turned off show before
 * anything is picked, and a policy file broken while the app runs is named, with its reason, atop the servers.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const missing = chromiumMissingReason();
if (missing) console.warn(`policy e2e skipped: ${missing}`);

const policyFile = (home: string) => join(home, 'policy.json');
const LOCKS = { approvals: 'always-ask', sandbox: 'required', installs: 'off' };

describe.skipIf(missing !== undefined)('the policy set by your organization, in web mode (Chromium)', { timeout: 120_000 }, () => {
  let browser: Browser;
  let app: RunningWebApp;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startWebApp(
      async (home) => {
        await writeFile(policyFile(home), JSON.stringify(LOCKS));
        // Switched off: what is shown here needs nothing running.
        const servers = { auto: { command: 'node', args: ['-v'], enabled: false, approval: 'auto' }, asks: { command: 'node', args: ['-v'], enabled: false } };
        await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
        await writeFile(join(home, 'approval-settings.json'), JSON.stringify({ autoAllowReadOnly: false, rules: [{ pattern: 'kept__*', effect: 'allow' }] }));
      },
      [],
      (home) => ({ SWITCHBOARD_POLICY: policyFile(home) }),
    );
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(app.url);
    await page.locator('[data-server="auto"]').waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
  const edit = async (server: string) => {
    await page.getByRole('button', { name: `More actions for ${server}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    return page.getByRole('form', { name: `Edit ${server}` });
  };

  it('a server set to auto shows it asks anyway; the edit form offers no new auto and shows the sandbox locked on', async () => {
    await expect.poll(() => page.locator('[data-server="auto"] [data-testid="auto-overridden"]').isVisible()).toBe(true);
    expect(await page.locator('[data-server="asks"] [data-testid="auto-overridden"]').count()).toBe(0);

    const autoForm = await edit('auto');
    await expect.poll(() => autoForm.getByTestId('approval-locked').textContent()).toContain('Asks anyway — set by your organization.');
    expect(await autoForm.getByTestId('sandbox-locked').textContent()).toContain('Always on, whatever this entry says — set by your organization.');

    const asksForm = await edit('asks');
    expect(await asksForm.getByTestId('approval-locked').textContent()).toContain('Every tool call asks — set by your organization.');
    expect(await asksForm.locator('option[value="auto"]').isDisabled()).toBe(true);
    expect(await asksForm.locator('option[value="ask"]').isDisabled()).toBe(false);
  });

  it('installs turned off are said up front in Browse and Install bundle, and a bundle cannot be picked', async () => {
    await page.getByRole('button', { name: 'Browse', exact: true }).click();
    expect(await page.getByTestId('installs-locked').textContent()).toBe('Installing servers is turned off — set by your organization.');
    await page.getByRole('button', { name: 'Install bundle', exact: true }).click();
    expect(await page.getByTestId('installs-locked').textContent()).toBe('Installing servers is turned off — set by your organization.');
    expect(await page.locator('input[type="file"][accept=".mcpb,.dxt"]').isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Paste JSON', exact: true }).click();
    expect(await page.getByTestId('paste-policy').textContent()).toContain('every tool call asks');
  });

  it('the settings say what is locked; allow rules are not in force and a new one cannot be saved, a deny rule can', async () => {
    await nav('Settings');
    const summary = page.getByTestId('policy-summary');
    await expect.poll(() => summary.textContent()).toContain('Every tool call asks — set by your organization');
    expect(await summary.textContent()).toContain('Installing servers is turned off.');
    expect(await summary.textContent()).toContain('Every local server runs in the sandbox.');

    await nav('Chat');
    await page.getByRole('button', { name: 'Model settings', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Model settings' });
    await panel.getByTestId('approvals-locked').waitFor();
    expect(await panel.getByTestId('allow-rules-idle').textContent()).toContain('kept__*');
    expect(await panel.getByRole('checkbox', { name: /read-only without asking/ }).isDisabled()).toBe(true);
    const rules = panel.getByRole('textbox', { name: 'Approval rules' });
    await rules.fill('kept__*: allow\nnew__*: allow');
    expect(await panel.getByTestId('allow-rule-locked').textContent()).toContain('The allow rule “new__*” cannot be added: every tool call asks — set by your organization.');
    expect(await panel.getByRole('button', { name: 'Save settings' }).isDisabled()).toBe(true);
    await rules.fill('kept__*: allow\n*__delete_*: deny');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await expect.poll(() => panel.getByText('Settings saved.').isVisible()).toBe(true);

    await nav('Permissions');
    expect(await page.getByTestId('grants-locked').textContent()).toContain('Every tool call asks — set by your organization.');
    expect(await page.locator('[data-grant="rule:kept__*"]').textContent()).toContain('not in force');
  });

  it('a policy file broken while the app runs is named at the top of the servers, with its reason, after Reconnect all', async () => {
    await writeFile(policyFile(app.home), '{ "approvals": "always-ask",');
    await nav('Servers');
    expect(await page.getByTestId('policy-broken').count()).toBe(0);
    await page.getByRole('button', { name: 'Reconnect all' }).click();
    const banner = page.getByTestId('policy-broken');
    await expect.poll(() => banner.isVisible(), { timeout: 20_000 }).toBe(true);
    // As shown (innerText): the sentence flows, the file's problem is a line of its own.
    const text = await banner.innerText();
    expect(text).toContain('The policy set by your organization is broken');
    expect(text).toContain(policyFile(app.home));
    expect(text).toMatch(/then Reconnect all\.\n.*policy\.json is not valid JSON/);
    expect(text).toContain('every server is refused, nothing can be installed, local servers must run in the sandbox and every tool call asks');
    expect(problems).toEqual([]);
  });
});
