/**
 * MCP Apps in the chat, through the real UI: the built web mode, real app servers from npm over stdio,
 * Chromium, and the fake LLM (the only fake). The model calls a tool that has an app; the tool card
 * shows the app with the stored result; a reload comes back to the conversation and the cards come
 * back, re-rendered from what was stored. The model is never offered an app-only tool.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type FakeLlmServer } from '../fixtures/llm/fake-llm-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { tinyPdf } from './support/tiny-pdf';
import { useFakeModel } from './support/ui-tour';
import { startWebApp, type RunningWebApp } from './support/web-app';

const missing = chromiumMissingReason();
if (missing) console.warn(`MCP Apps in chat e2e skipped: ${missing}`);
const pkg = (name: string) => resolve(`node_modules/@modelcontextprotocol/${name}/dist/index.js`);

describe.skipIf(missing !== undefined)('MCP Apps in the chat (web mode, Chromium, fake LLM)', { timeout: 180_000 }, () => {
  let browser: Browser;
  let app: RunningWebApp;
  let llm: FakeLlmServer;
  let page: Page;
  let pdfUrl: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const pdf = join(await mkdtemp(join(tmpdir(), 'switchboard-chat-pdf-')), 'letter.pdf');
    await writeFile(pdf, tinyPdf('A letter for the chat'));
    pdfUrl = pathToFileURL(pdf).href;
    llm = await startFakeLlmServer();
    browser = await launchChromium();
    app = await startWebApp(async (home) =>
      writeFile(
        join(home, 'servers.json'),
        JSON.stringify({
          servers: {
            basic: { command: process.execPath, args: [pkg('server-basic-svelte'), '--stdio'], approval: 'auto' },
            pdf: { command: process.execPath, args: [pkg('server-pdf'), '--stdio', pdf], approval: 'auto' },
          },
        }),
      ),
    );
    page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(app.url);
    for (const name of ['basic', 'pdf']) {
      await page.locator(`[data-server="${name}"][data-state="connected"]`).waitFor({ timeout: 60_000 });
    }
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await useFakeModel(page, llm);
  }, 120_000);

  afterAll(async () => {
    await page?.close();
    await app?.stop();
    await browser?.close();
    await llm?.close();
  });

  const card = (callId: string) => page.locator(`[data-testid="tool-card"][data-call-id="${callId}"]`);
  const frameIn = (callId: string) => card(callId).getByTestId('app-frame');
  const appIn = (callId: string) => page.frameLocator(`[data-call-id="${callId}"] [data-testid="app-frame"] iframe`).frameLocator('iframe');

  /** The message list is virtual: a card far from the view is not in the page. Scroll to an end of the list to bring one in. */
  async function scrollToCard(callId: string, end: 'top' | 'bottom'): Promise<void> {
    await page.getByTestId('message-list').evaluate((list, top) => list.scrollTo({ top: top ? 0 : list.scrollHeight }), end === 'top');
    await expect.poll(() => card(callId).count(), { timeout: 30_000 }).toBe(1);
    await card(callId).scrollIntoViewIfNeeded();
  }

  /** The ISO time get-time returned, as the card shows it (the app's frames are not part of the card's text). */
  const timeIn = async (callId: string) => /\d{4}-\d{2}-\d{2}T[\d:.]+Z/.exec(await card(callId).innerText())?.[0];

  async function send(text: string): Promise<void> {
    await page.getByTestId('composer-input').fill(text);
    await page.getByTestId('composer-input').press('Enter');
  }

  it('shows server-basic-svelte\'s app in the tool card of the model\'s call, with the result it was given', async () => {
    let answer!: () => void;
    const modelAnswers = new Promise<void>((resolve) => (answer = resolve));
    llm.script({ toolCalls: [{ id: 'call_time', name: 'basic__get-time', args: {} }] }, { text: 'That is the time.', before: modelAnswers });
    await send('What time is it?');
    await expect.poll(() => card('call_time').getAttribute('data-state'), { timeout: 30_000 }).toBe('succeeded');
    await expect.poll(() => frameIn('call_time').getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    // The app started while the turn was live; when the turn ends and the stored messages take over, it keeps running (not restarted).
    await frameIn('call_time').locator('iframe').evaluate((f) => ((f as HTMLIFrameElement & { startedLive?: boolean }).startedLive = true));
    answer();
    await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'That is the time.' }).waitFor({ timeout: 30_000 });
    expect(await frameIn('call_time').locator('iframe').evaluate((f) => (f as HTMLIFrameElement & { startedLive?: boolean }).startedLive)).toBe(true);
    const time = await timeIn('call_time');
    expect(time).toBeDefined();
    await expect.poll(() => appIn('call_time').locator('body').innerText(), { timeout: 30_000 }).toContain(time!);
    // The model was offered the app's tool but none of the servers' app-only tools.
    const offered = (llm.requests[0]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
    expect(offered).toContain('basic__get-time');
    expect(offered).toContain('pdf__display_pdf');
    expect(offered).not.toContain('pdf__read_pdf_bytes');
    await mkdir('test-results', { recursive: true });
    await card('call_time').screenshot({ path: 'test-results/chat-mcp-app-basic.png' });
  });

  it('renders server-pdf\'s viewer in the chat: the app reads the PDF through its app-only tool', async () => {
    llm.script({ toolCalls: [{ id: 'call_pdf', name: 'pdf__display_pdf', args: { url: pdfUrl } }] }, { text: 'Here is the letter.' });
    await send('Show me the letter');
    await expect.poll(() => card('call_pdf').getAttribute('data-state'), { timeout: 30_000 }).toBe('succeeded');
    // Once the turn is over its live rows give way to the stored ones: scroll the card that stays.
    await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'Here is the letter.' }).waitFor({ timeout: 30_000 });
    await card('call_pdf').scrollIntoViewIfNeeded();
    await expect.poll(() => frameIn('call_pdf').getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    // It reports its full size (up to the card's 640 px bound) once it has read the bytes (read_pdf_bytes, an app-only tool) and drawn the page.
    // The frame's height, or why there is no frame (the app's error in its card).
    const heightOrError = async () => ((await frameIn('call_pdf').locator('iframe').count()) > 0 ? frameIn('call_pdf').locator('iframe').evaluate((f) => f.getBoundingClientRect().height) : `no frame: ${await card('call_pdf').innerText()}`);
    await expect.poll(heightOrError, { timeout: 60_000 }).toBe(640);
    await expect.poll(() => appIn('call_pdf').locator('body').innerText(), { timeout: 30_000 }).toContain('letter.pdf');
    await page.waitForTimeout(1500);
    await card('call_pdf').screenshot({ path: 'test-results/chat-mcp-app-pdf.png' });
  });

  it('comes back to the open conversation after a reload, and the cards\' apps come back from the stored results', async () => {
    await scrollToCard('call_time', 'top');
    const stored = (await timeIn('call_time'))!;
    await page.reload();
    await expect.poll(() => page.url()).toMatch(/#chat\/[A-Za-z0-9-]+$/);
    await expect.poll(() => page.getByTestId('conversation-title').innerText(), { timeout: 20_000 }).toBe('What time is it?');
    await scrollToCard('call_time', 'top');
    await expect.poll(() => frameIn('call_time').getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    // The same time as before the reload: the app got the stored result, not a new call.
    await expect.poll(() => appIn('call_time').locator('body').innerText(), { timeout: 60_000 }).toContain(stored);
    await scrollToCard('call_pdf', 'bottom');
    await expect.poll(() => frameIn('call_pdf').getAttribute('data-status'), { timeout: 60_000 }).toBe('running');
    expect(llm.requests).toHaveLength(4);
    expect(problems).toEqual([]);
  });
});
