import { describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { bundle, openHarness } from './support/browser-harness';

const missing = chromiumMissingReason();

type State = { asked: string[]; servers: string[] | null; projects: string[]; loaded: boolean };

describe('ServersStore.load in Chromium', () => {
  it.skipIf(missing)('shows the servers the moment their snapshot arrives, without waiting for approvals and project folders', async () => {
    const browser = await launchChromium();
    try {
      const { page, errors } = await openHarness(browser, await bundle('test/unit/renderer/support/servers-store-entry.ts'));
      await page.waitForFunction(() => 'startLoad' in window);
      const state = () => page.evaluate(() => (window as unknown as { storeState: () => State }).storeState());
      const release = (method: string, value: unknown) => page.evaluate(([m, v]) => (window as unknown as { release: (m: string, v: unknown) => void }).release(m, v), [method, value] as const);
      await page.evaluate(() => (window as unknown as { startLoad: () => void }).startLoad());
      // The snapshot is asked for first: the host builds it while the file reads are on their way.
      expect((await state()).asked).toEqual(['listServers', 'listTrust', 'listProjects']);
      await release('listServers', { servers: [{ name: 'alpha' }, { name: 'beta' }], problems: [], status: {}, configPath: '/x' });
      await expect.poll(async () => (await state()).servers).toEqual(['alpha', 'beta']);
      // Drawn: the host may start the servers it held back for the window.
      await expect.poll(async () => (await state()).asked).toEqual(['listServers', 'listTrust', 'listProjects', 'windowShown']);
      expect((await state()).loaded).toBe(false);
      await release('listTrust', []);
      await release('listProjects', { projects: ['/work/project'] });
      await expect.poll(async () => (await state()).loaded).toBe(true);
      expect((await state()).projects).toEqual(['/work/project']);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
