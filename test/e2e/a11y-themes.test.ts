/**
 * Accessibility and themes end to end in Chromium through web mode: axe-core (a maintained engine)
 * finds no serious or critical violation on any page or dialog, light or dark; the theme choice is
 * stored and followed; keyboard focus is visible, stays in a dialog and comes back after it.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { openTourPage, THEMES } from './support/tour-page';
import { scenes, startTourApp, type TourApp } from './support/ui-tour';

const missing = chromiumMissingReason();
if (missing) console.warn(`accessibility e2e skipped: ${missing}`);

/** Each violation as "rule (impact): where", so a failure says what to fix. */
async function seriousViolations(page: Page): Promise<string[]> {
  // An MCP App's own document is its server's, not Switchboard's; and axe cannot see the host's background through
  // the app's transparent frame, so it would judge the app's dark-theme text against white.
  const { violations } = await new AxeBuilder({ page }).exclude('[data-testid="app-frame"] iframe').analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));
}

const theme = (page: Page) => page.evaluate(() => document.documentElement.dataset.theme);
const background = (page: Page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);

describe.skipIf(missing !== undefined)('accessibility and themes in web mode (Chromium, axe-core)', { timeout: 90_000 }, () => {
  let browser: Browser;
  let tour: TourApp;
  beforeAll(async () => {
    browser = await launchChromium();
    tour = await startTourApp();
  }, 60_000);
  afterAll(async () => {
    await tour?.close();
    await browser?.close();
  });

  it('finds violations where there are some (the check itself works on this page)', async () => {
    const open = await openTourPage(browser, tour, 'light');
    const page = await open();
    try {
      await page.evaluate(() => {
        const bad = document.createElement('div');
        bad.innerHTML = '<button id="nameless"></button><input id="unlabelled" type="text">';
        document.querySelector('main')!.append(bad);
      });
      const found = await seriousViolations(page);
      expect(found.some((v) => v.startsWith('button-name (critical): #nameless'))).toBe(true);
      expect(found.some((v) => v.startsWith('label (critical): #unlabelled'))).toBe(true);
    } finally {
      await page.close();
    }
  });

  for (const scheme of THEMES) {
    describe(`in the ${scheme} theme`, () => {
      let open: () => Promise<Page>;
      beforeAll(async () => {
        open = await openTourPage(browser, tour, scheme);
      });
      for (const scene of scenes) {
        it(`${scene.name}: no serious or critical axe violation`, async () => {
          const page = await open();
          try {
            await scene.show(page, tour);
            expect(await theme(page)).toBe(scheme);
            expect(await seriousViolations(page)).toEqual([]);
          } finally {
            await scene.leave?.(page);
            await page.close();
          }
        });
      }
    });
  }

  it('stores a manual theme choice, which wins over the OS until "Same as the system" is chosen again', async () => {
    const open = await openTourPage(browser, tour, 'light');
    const page = await open();
    try {
      const lightBackground = await background(page);
      expect(await theme(page)).toBe('light');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
      const appearance = page.getByRole('group', { name: 'Appearance' });
      await appearance.getByRole('radio', { name: /^Dark/ }).check();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      expect(await background(page)).not.toBe(lightBackground);
      expect(await page.getByTestId('effective-theme').innerText()).toBe('Showing the dark theme.');
      await expect.poll(async () => JSON.parse(await readFile(join(tour.app.home, 'appearance.json'), 'utf8'))).toEqual({ theme: 'dark' });

      // Another window (a fresh page) opens in the stored choice, though the OS is light.
      const other = await open();
      await other.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      // …and hears of a change made in the first one.
      await appearance.getByRole('radio', { name: /^Same as the system/ }).check();
      await other.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      // "System" follows the OS as it changes.
      await other.emulateMedia({ colorScheme: 'dark' });
      await other.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
      await other.close();
      await expect.poll(async () => JSON.parse(await readFile(join(tour.app.home, 'appearance.json'), 'utf8'))).toEqual({ theme: 'system' });
    } finally {
      await page.close();
    }
  });

  it('shows keyboard focus, reaches the pages from the keyboard, keeps focus in a dialog and returns it after', async () => {
    const open = await openTourPage(browser, tour, 'dark');
    const page = await open();
    try {
      // Tab reaches the first page link, and its focus ring is drawn.
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return { text: el.textContent?.trim(), outline: style.outlineStyle, width: style.outlineWidth };
      });
      expect(focused).toEqual({ text: 'Servers', outline: 'solid', width: '2px' });
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByTestId('conversation-title').waitFor();

      tour.llm.script({ toolCalls: [{ id: 'call_keyboard', name: 'everything__echo', args: { message: 'typed' } }] }, { text: 'Done.' });
      const composer = page.getByTestId('composer-input');
      await composer.focus();
      await page.keyboard.type('Echo from the keyboard');
      await page.keyboard.press('Enter');
      const dialog = page.getByTestId('approval-dialog');
      await dialog.waitFor({ timeout: 30_000 });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('approval-dialog');
      // Twenty presses of Tab never leave the dialog (the page behind is inert).
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.querySelector('[data-testid="approval-dialog"]')!.contains(document.activeElement))).toBe(true);
      }
      await dialog.getByRole('button', { name: 'Allow once' }).focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached', timeout: 30_000 });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('composer-input');
      await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'Done.' }).waitFor({ timeout: 30_000 });
    } finally {
      await page.close();
    }
  });

  it('announces server state changes through a status region', async () => {
    const open = await openTourPage(browser, tour, 'light');
    const page = await open();
    try {
      const row = page.locator('[data-server="everything"]');
      await page.locator('[data-server="everything"][data-state="connected"]').waitFor({ timeout: 30_000 });
      // Every text the region takes, in order: other servers may be heard in between.
      await page.evaluate(() => {
        const region = document.querySelector('[data-testid="server-announcer"]')!;
        const said: string[] = ((window as unknown as { said: string[] }).said = []);
        new MutationObserver(() => said.push(region.textContent ?? '')).observe(region, { childList: true, characterData: true, subtree: true });
      });
      expect(await page.getByTestId('server-announcer').getAttribute('role')).toBe('status');
      await row.getByRole('checkbox', { name: 'Disable everything' }).uncheck();
      await page.waitForFunction(() => (window as unknown as { said: string[] }).said.some((t) => t.includes('everything: Disabled.')), undefined, { timeout: 30_000 });
      await row.getByRole('checkbox', { name: 'Enable everything' }).check();
      await page.waitForFunction(() => (window as unknown as { said: string[] }).said.some((t) => t.includes('everything: Connected.')), undefined, { timeout: 30_000 });
    } finally {
      await page.close();
    }
  });
});
