import { describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { bundle, openHarness } from './support/browser-harness';

const missing = chromiumMissingReason();
type Win = { start: () => void; advance: (ms: number) => void; approve: () => void; finish: () => void; runState: () => { phase: string; elapsedMs?: number } | undefined };

describe('ToolRuns in Chromium', () => {
  it.skipIf(missing)('counts a run\'s time from its approval, not from the click (the wait for the person is not the tool\'s)', async () => {
    const browser = await launchChromium();
    try {
      const { page, errors } = await openHarness(browser, await bundle('test/unit/renderer/support/tool-runs-entry.ts'));
      await page.waitForFunction(() => 'start' in window);
      const call = <K extends keyof Win>(name: K, ...args: Parameters<Win[K]>) => page.evaluate(([n, a]) => ((window as unknown as Record<string, (...x: unknown[]) => unknown>)[n as string]!)(...(a as unknown[])), [name, args] as const);
      await call('start');
      await call('advance', 60_000); // the approval dialog waits a minute
      await call('approve');
      await call('advance', 250); // the tool itself runs a quarter second
      await call('finish');
      await expect.poll(async () => ((await call('runState')) as { phase: string }).phase).toBe('done');
      expect(((await call('runState')) as { elapsedMs: number }).elapsedMs).toBe(250);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
