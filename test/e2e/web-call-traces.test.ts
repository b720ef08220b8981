/**
 * Call traces in the UI, in Chromium through web mode: the built app with real server-everything over
 * stdio and the fake LLM (a local server speaking the OpenAI streaming format). The tool card's
 * "Show trace" and the server's Logs show the same timeline: asked, approved by you, sent to the
 * server's process, progress, answered.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fixtures/llm/fake-llm-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { useFakeModel } from './support/ui-tour';
import { startWebApp } from './support/web-app';

const everything = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const missing = chromiumMissingReason();
if (missing) console.warn(`call traces e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('call traces in web mode (Chromium, server-everything, fake LLM)', { timeout: 90_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the timeline of a chat tool call in its card and among the server\'s recent calls', async () => {
    const llm = await startFakeLlmServer([
      { text: 'Running it.', toolCalls: [{ id: 'call_long', name: 'everything__trigger-long-running-operation', args: { duration: 1, steps: 3 } }] },
      { text: 'It finished.' },
    ]);
    const app = await startWebApp(async (home) => {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
    });
    const page = await browser.newPage({ viewport: { width: 1180, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      await page.goto(app.url);
      await expect.poll(() => page.locator('[data-server="everything"]').getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
      await useFakeModel(page, llm);
      await page.getByTestId('composer-input').fill('Run the long operation');
      await page.getByTestId('composer-input').press('Enter');
      const dialog = page.getByTestId('approval-dialog');
      await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      const card = page.locator('[data-testid="tool-card"][data-call-id="call_long"]');
      await expect.poll(() => card.getAttribute('data-state'), { timeout: 20_000 }).toBe('succeeded');

      await card.getByRole('button', { name: 'Show trace' }).click();
      const timeline = card.getByTestId('trace-timeline');
      await timeline.waitFor({ timeout: 10_000 });
      const steps = await timeline.locator('li[data-step]').evaluateAll((items) => items.map((li) => li.getAttribute('data-step')));
      expect(steps.slice(0, 3)).toEqual(['asked', 'approved', 'sent']);
      expect(steps.filter((s) => s === 'progress').length).toBeGreaterThanOrEqual(2);
      expect(steps.at(-1)).toBe('answered');
      const text = await timeline.innerText();
      expect(text).toMatch(/\+0 ms\s+asked by the model \(arguments: \d+ B\)/);
      expect(text).toContain('approved by you — you allowed it once');
      expect(text).toMatch(/sent to process \d+, connection \d+/);
      expect(text).toContain('progress 1 of 3');
      expect(text).toMatch(/answered: 1 part, \d+ B/);
      await mkdir('test-results', { recursive: true });
      await card.screenshot({ path: 'test-results/call-trace-card.png' });

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers' }).click();
      await page.locator('[data-server="everything"]').getByRole('button', { name: 'Logs' }).click();
      const recent = page.getByTestId('server-call-traces');
      await recent.getByText(/^trigger-long-running-operation — done in [\d.]+ s, asked by the model at \d\d:\d\d:\d\d$/).click();
      await expect.poll(() => recent.getByTestId('trace-timeline').innerText()).toContain('approved by you — you allowed it once');
      await page.screenshot({ path: 'test-results/call-trace-logs.png' });
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await app.stop();
      await llm.close();
    }
  });
});
