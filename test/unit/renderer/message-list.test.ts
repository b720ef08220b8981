/**
 * The virtualized message list in real Chromium under the app's CSP: 5,000 rows render only the
 * visible window, measured heights keep rows in order without overlap, the list follows new rows
 * at the bottom and stays put when the reader scrolled up. Frame times are printed, not asserted.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { bundle, openHarness, type HarnessPage } from './support/browser-harness';

const missing = chromiumMissingReason();
if (missing) console.warn(`message list tests skipped: ${missing}`);

interface ListState {
  rendered: number[];
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  /** Each rendered row's top and bottom relative to the list's content. */
  boxes: { index: number; top: number; bottom: number }[];
}

async function listState(page: Page): Promise<ListState> {
  return page.evaluate(() => {
    const viewport = document.querySelector<HTMLElement>('[data-testid="message-list"]')!;
    const origin = viewport.getBoundingClientRect().top - viewport.scrollTop;
    const rows = [...viewport.querySelectorAll<HTMLElement>('.row')];
    return {
      rendered: rows.map((r) => Number(r.dataset.index)),
      scrollTop: viewport.scrollTop,
      scrollHeight: viewport.scrollHeight,
      clientHeight: viewport.clientHeight,
      boxes: rows.map((r) => {
        const box = r.getBoundingClientRect();
        return { index: Number(r.dataset.index), top: box.top - origin, bottom: box.bottom - origin };
      }),
    };
  });
}

/** Scrolls by `step` px per animation frame for `frames` frames; returns the gaps between frames in ms. */
async function scrollFrames(page: Page, step: number, frames: number): Promise<number[]> {
  return page.evaluate(
    ([stepPx, count]) =>
      new Promise<number[]>((resolve) => {
        const viewport = document.querySelector<HTMLElement>('[data-testid="message-list"]')!;
        const gaps: number[] = [];
        let last = performance.now();
        let n = 0;
        const tick = (now: number) => {
          gaps.push(now - last);
          last = now;
          viewport.scrollTop += stepPx!;
          if (++n < count!) requestAnimationFrame(tick);
          else resolve(gaps.slice(1));
        };
        requestAnimationFrame(tick);
      }),
    [step, frames],
  );
}

/**
 * Main-thread work of one scroll step: our scroll handler, Svelte's update, and the style and
 * layout of the new rows (forced by reading scrollHeight), measured inside each frame.
 */
async function scrollWork(page: Page, step: number, frames: number): Promise<number[]> {
  return page.evaluate(
    async ([stepPx, count]) => {
      const viewport = document.querySelector<HTMLElement>('[data-testid="message-list"]')!;
      const channel = new MessageChannel();
      const nextTask = () => new Promise<void>((r) => {
        channel.port1.onmessage = () => r();
        channel.port2.postMessage(null);
      });
      const work: number[] = [];
      for (let i = 0; i < count!; i++) {
        await new Promise((r) => requestAnimationFrame(r));
        const start = performance.now();
        viewport.scrollTop += stepPx!;
        viewport.dispatchEvent(new Event('scroll'));
        await nextTask();
        void viewport.scrollHeight;
        work.push(performance.now() - start);
      }
      return work;
    },
    [step, frames],
  );
}

const settle = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 50)))));

function expectContiguousAndStacked(state: ListState): void {
  expect(state.rendered.length).toBeGreaterThan(0);
  state.rendered.forEach((index, i) => expect(index).toBe(state.rendered[0]! + i));
  for (let i = 1; i < state.boxes.length; i++) expect(Math.abs(state.boxes[i]!.top - state.boxes[i - 1]!.bottom)).toBeLessThan(1);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

describe.skipIf(missing !== undefined)('MessageList with 5,000 messages in Chromium', () => {
  let browser: Browser;
  let harness: HarnessPage;

  beforeAll(async () => {
    const code = await bundle('test/unit/renderer/support/message-list-entry.ts');
    browser = await launchChromium();
    harness = await openHarness(browser, code);
    await settle(harness.page);
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('opens at the latest message and renders only the visible window plus overscan', async () => {
    const state = await listState(harness.page);
    expect(state.rendered.at(-1)).toBe(4999);
    expect(state.rendered.length).toBeLessThan(60);
    expect(state.scrollHeight - state.scrollTop - state.clientHeight).toBeLessThan(2);
    expectContiguousAndStacked(state);
  });

  it('scrolls to the top through every region with rows stacked in order and the DOM kept small', async () => {
    const wheel = await scrollFrames(harness.page, -120, 150);
    const fling = await scrollFrames(harness.page, -2500, 150);
    // Back down from the top, through rows not rendered yet at these positions.
    await harness.page.evaluate(() => (document.querySelector<HTMLElement>('[data-testid="message-list"]')!.scrollTop = 0));
    const wheelWork = await scrollWork(harness.page, 120, 150);
    const flingWork = await scrollWork(harness.page, 2500, 150);
    await harness.page.evaluate(() => (document.querySelector<HTMLElement>('[data-testid="message-list"]')!.scrollTop = 0));
    await settle(harness.page);
    const state = await listState(harness.page);
    expect(state.rendered[0]).toBe(0);
    expect(state.rendered.length).toBeLessThan(60);
    expectContiguousAndStacked(state);
    const stats = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms, max ${Math.max(...values).toFixed(1)} ms`;
    console.log(
      [
        'MessageList, 5,000 rows, 150 frames each:',
        `  120 px per frame (a wheel notch): frame gap ${stats(wheel)}; work per step ${stats(wheelWork)}`,
        `  2,500 px per frame (a fling):     frame gap ${stats(fling)}; work per step ${stats(flingWork)}`,
      ].join('\n'),
    );
  });

  it('jumps to the middle and shows the rows there', async () => {
    await harness.page.evaluate(() => {
      const viewport = document.querySelector<HTMLElement>('[data-testid="message-list"]')!;
      viewport.scrollTop = viewport.scrollHeight / 2;
    });
    await settle(harness.page);
    const state = await listState(harness.page);
    expect(state.rendered[0]).toBeGreaterThan(500);
    expect(state.rendered.at(-1)).toBeLessThan(4500);
    expectContiguousAndStacked(state);
  });

  it('stays put when a row arrives while the reader is scrolled up', async () => {
    const before = await listState(harness.page);
    await harness.page.evaluate(() => (window as unknown as { harness: { append: (r: unknown) => void } }).harness.append({ key: 'new1', kind: 'user', text: 'new question' }));
    await settle(harness.page);
    const after = await listState(harness.page);
    expect(after.rendered[0]).toBe(before.rendered[0]);
    expect(Math.abs(after.scrollTop - before.scrollTop)).toBeLessThan(2);
    expect(await harness.page.getByRole('button', { name: 'Jump to latest' }).isVisible()).toBe(true);
  });

  it('follows new rows once back at the bottom', async () => {
    await harness.page.getByRole('button', { name: 'Jump to latest' }).click();
    await settle(harness.page);
    await harness.page.evaluate(() =>
      (window as unknown as { harness: { append: (r: unknown) => void } }).harness.append({ key: 'new2', kind: 'assistant', text: 'A fresh **answer**\n\n'.repeat(8), calls: [], streaming: true }),
    );
    await settle(harness.page);
    const state = await listState(harness.page);
    expect(state.rendered.at(-1)).toBe(5001);
    expect(state.scrollHeight - state.scrollTop - state.clientHeight).toBeLessThan(2);
    expect(await harness.page.getByRole('button', { name: 'Jump to latest' }).count()).toBe(0);
  });

  it('sized its spacers through the CSSOM: no CSP violation, no page error', async () => {
    expect(await harness.violations()).toEqual([]);
    expect(harness.errors).toEqual([]);
  });
});
