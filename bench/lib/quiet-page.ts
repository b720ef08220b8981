import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';

/**
 * A new page in the running browser, opened before the clock starts and left until the machine is quiet:
 * Chromium starts a WebUI renderer with a new page that takes ~1 s of CPU here, which would otherwise
 * fall on the app's start-up being timed.
 */
export async function quietPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const page = await browser.newPage({ viewport });
  await page.goto('about:blank');
  await untilQuiet();
  return page;
}

/** Until the CPUs were ≥ 90% idle over 250 ms (Linux's /proc/stat), at most 5 s; elsewhere 1 s. */
export async function untilQuiet(): Promise<void> {
  const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
  const deadline = Date.now() + 5_000;
  let before = await cpuTimes();
  if (!before) return sleep(1_000);
  while (Date.now() < deadline) {
    await sleep(250);
    const after = await cpuTimes();
    if (!after) return;
    const total = after.total - before.total;
    if (total > 0 && (after.idle - before.idle) / total >= 0.9) return;
    before = after;
  }
}

async function cpuTimes(): Promise<{ idle: number; total: number } | undefined> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => '');
  const fields = /^cpu\s+(.*)$/m.exec(stat)?.[1]?.trim().split(/\s+/).map(Number);
  if (!fields || fields.length < 5) return undefined;
  return { idle: fields[3]! + fields[4]!, total: fields.reduce((a, b) => a + b, 0) };
}
