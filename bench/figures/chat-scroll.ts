import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { isInvokeName, startWebHost } from '../lib/shipped';
import { newCore } from '../lib/core';
import { CONVERSATION_ID, longConversation, TITLE } from '../lib/long-conversation';
import { judge, notBuilt, type Figure } from '../lib/figure';
import { REPO, tempHome } from '../lib/servers';
import { summarize } from '../lib/stats';

const MESSAGES = 5000;
const CHROMIUM = process.env.SWITCHBOARD_CHROMIUM ?? '/usr/bin/chromium';
const RENDERER = join(REPO, 'out/renderer');
/** Reading scroll: a fixed step per frame from the bottom up (a fast mouse wheel, ~7,200 px/s at 60 Hz). */
const READ_STEP_PX = 120;
const READ_FRAMES = 300;
/** Flick: bottom to top of all 5,000 messages in this many frames, so every frame shows new rows. */
const FLICK_FRAMES = 240;

const frameTarget = { kind: 'absolute' as const, max: 16, unit: 'ms (p95 frame)' };
const base = { id: 'chat-5000-scroll', title: `chat of ${MESSAGES.toLocaleString('en-US')} messages in Chromium: frame time while scrolling`, unit: 'ms', target: frameTarget };
const flickBase = { id: 'chat-5000-flick', title: `chat of ${MESSAGES.toLocaleString('en-US')} messages: frame time flicking through the whole list`, unit: 'ms', target: { kind: 'report' as const } };
const renderBase = { id: 'chat-5000-render', title: `chat of ${MESSAGES.toLocaleString('en-US')} messages: time to render`, unit: 'ms', target: { kind: 'report' as const } };

/** Why the figure cannot run yet, or undefined when every piece it needs exists. */
export function chatMissing(): string | undefined {
  if (!existsSync(CHROMIUM)) return `no Chromium at ${CHROMIUM}`;
  if (!existsSync(join(RENDERER, 'index.html'))) return 'the renderer is not built (out/renderer/index.html); npm run bench builds it';
  if (!isInvokeName('getConversation') || !isInvokeName('listConversations')) {
    return 'the chat invokes (listConversations, getConversation) are not in the contract: src-preload/contract.ts does not compose chatInvokes yet, so web mode cannot load a conversation';
  }
  return undefined;
}

/**
 * Runs in the page. A string, not a function: tsx compiles this file with esbuild's keepNames,
 * which wraps named functions in a __name() helper the page does not have.
 */
export function scrollScript(frames: number, stepPx: number | 'whole-list'): string {
  return `(async () => {
    const viewport = document.querySelector('[data-testid="message-list"]');
    if (!viewport) throw new Error('no message list');
    viewport.scrollTop = viewport.scrollHeight;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())));
    const step = ${stepPx === 'whole-list' ? `Math.max(1, Math.floor((viewport.scrollHeight - viewport.clientHeight) / ${frames}))` : stepPx};
    const deltas = [];
    let last = performance.now();
    await new Promise((done) => {
      const tick = (now) => {
        deltas.push(now - last);
        last = now;
        viewport.scrollTop = Math.max(0, viewport.scrollTop - step);
        if (deltas.length > ${frames}) done();
        else requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    return { deltas: deltas.slice(1), rows: document.querySelectorAll('[data-testid="message-list"] [data-index]').length };
  })()`;
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))]!;

/**
 * Web mode in Chromium: the core's conversation store holds one 5,000-message conversation; the
 * bench opens it from the chat page (time to render: click until the list's rows are painted),
 * then scrolls the message list from the bottom to the top, a fixed step per frame, and records
 * requestAnimationFrame deltas. Chromium runs with the frame-rate limit off, so a delta is the
 * frame's real cost (script, style, layout, paint), not the 16.7 ms vsync interval.
 */
export async function chatScroll(runs: number): Promise<Figure[]> {
  const missing = chatMissing();
  if (missing) return [notBuilt(base, missing), notBuilt(flickBase, missing), notBuilt(renderBase, missing)];

  const { home, cleanup } = await tempHome('chat');
  let core: ReturnType<typeof newCore> | undefined;
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  try {
    core = newCore(home);
    const conversation = longConversation(MESSAGES);
    await mkdir(join(home, 'conversations'), { recursive: true });
    await writeFile(join(home, 'conversations', `${CONVERSATION_ID}.json`), JSON.stringify(conversation));
    await core.start();
    host = await startWebHost({ handlers: core.handlers, events: core.events, rendererDir: RENDERER });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-frame-rate-limit', '--disable-gpu-vsync'],
    });
    const renderTimes: number[] = [];
    const frameP95: number[] = [];
    const frameMedians: number[] = [];
    const flickP95: number[] = [];
    const flickMedians: number[] = [];
    let rowsSeen = 0;
    for (let run = 0; run < runs; run++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      try {
        await page.goto(host.url);
        const chatNav = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /chat/i });
        if ((await chatNav.count()) === 0) {
          const reason = 'the app shell has no Chat page in its navigation yet';
          return [notBuilt(base, reason), notBuilt(flickBase, reason), notBuilt(renderBase, reason)];
        }
        await chatNav.click();
        const open = page.getByRole('complementary', { name: 'Conversations' }).getByRole('button', { name: TITLE });
        await open.waitFor({ timeout: 20_000 });
        const started = Date.now();
        await open.click();
        await page.locator('[data-testid="message-list"] [data-index]').first().waitFor({ timeout: 60_000 });
        // Two frames: the rows are laid out and painted.
        await page.evaluate('new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))');
        renderTimes.push(Date.now() - started);
        const read = (await page.evaluate(scrollScript(READ_FRAMES, READ_STEP_PX))) as { deltas: number[]; rows: number };
        rowsSeen = read.rows;
        frameP95.push(p95(read.deltas));
        frameMedians.push(summarize(read.deltas).median);
        const flick = (await page.evaluate(scrollScript(FLICK_FRAMES, 'whole-list'))) as { deltas: number[]; rows: number };
        flickP95.push(p95(flick.deltas));
        flickMedians.push(summarize(flick.deltas).median);
      } finally {
        await page.close();
      }
    }
    return [
      judge({
        ...base,
        switchboard: { stats: summarize(frameP95), work: `p95 of rAF deltas scrolling up from the bottom, ${READ_STEP_PX} px per frame for ${READ_FRAMES} frames (${rowsSeen} rows in the DOM)` },
        note: `median frame ${summarize(frameMedians).median.toFixed(1)} ms; the raw SDK has no UI (ratio n/a)`,
      }),
      judge({
        ...flickBase,
        switchboard: { stats: summarize(flickP95), work: `p95 of rAF deltas, bottom → top of all ${MESSAGES.toLocaleString('en-US')} messages in ${FLICK_FRAMES} frames (every frame shows new rows)` },
        note: `median frame ${summarize(flickMedians).median.toFixed(1)} ms`,
      }),
      judge({ ...renderBase, switchboard: { stats: summarize(renderTimes), work: 'click on the conversation until its rows are painted (getConversation over the WebSocket included)' } }),
    ];
  } finally {
    await browser?.close();
    await host?.close();
    await core?.stop();
    await cleanup();
  }
}
