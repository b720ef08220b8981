/**
 * The tool budget and tools on demand end to end in Chromium through web mode: the built app with
 * real server-everything and server-memory over stdio, and a scripted OpenAI-compatible endpoint on
 * 127.0.0.1 (the only fake). The person sees tokens per server and per tool, lowers the budget and
 * gets the warning, pins a server; the model then searches, loads a tool and calls it with approval.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type RecordedRequest } from '../fixtures/llm/fake-llm-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { useFakeModel } from './support/ui-tour';
import { startWebApp } from './support/web-app';

const everything = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const memory = resolve('node_modules/@modelcontextprotocol/server-memory/dist/index.js');
const missing = chromiumMissingReason();
if (missing) console.warn(`tools on demand e2e skipped: ${missing}`);

const offered = (request: RecordedRequest) => ((request.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const toolTexts = (request: RecordedRequest) => (request.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool').map((m) => String(m.content));
const tokens = (text: string) => Number(/([\d,]+) tokens?/.exec(text)![1]!.replaceAll(',', ''));

describe.skipIf(missing !== undefined)('tools on demand in web mode (Chromium, real servers, scripted OpenAI-compatible endpoint)', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function shot(page: Page, name: string): Promise<void> {
    await mkdir('test-results', { recursive: true });
    await page.screenshot({ path: `test-results/${name}.png`, fullPage: true });
  }

  it('shows tokens and the budget warning, and the model searches, loads and calls a tool it was not given', async () => {
    const llm = await startFakeLlmServer([
      { text: 'Let me find a tool for that.', toolCalls: [{ id: 'call_find', name: 'find_tools', args: { query: 'add two numbers' } }] },
      { toolCalls: [{ id: 'call_sum', name: 'everything__get-sum', args: { a: 20, b: 22 } }] },
      (request) => ({ text: `The answer: ${toolTexts(request).at(-1)}` }),
    ]);
    const app = await startWebApp(async (home) => {
      const servers = { everything: { command: process.execPath, args: [everything, 'stdio'] }, memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } } };
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }, null, 2));
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    try {
      await page.goto(app.url);
      for (const name of ['everything', 'memory']) {
        await expect.poll(() => page.locator(`[data-server="${name}"]`).getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      }
      // Tokens per server, and their sum is the enabled catalog's figure.
      const budget = page.getByTestId('tool-budget');
      await expect.poll(async () => tokens(await page.locator('[data-server="memory"] [data-testid="server-tokens"]').innerText())).toBeGreaterThan(100);
      // New tools are estimated at once and counted off the main thread; the figures below are the counted ones.
      await page.getByTestId('budget-counting').waitFor({ state: 'detached' });
      const perServer = await Promise.all(['everything', 'memory'].map(async (s) => tokens(await page.locator(`[data-server="${s}"] [data-testid="server-tokens"]`).innerText())));
      expect(tokens(await page.getByTestId('budget-tokens').innerText())).toBe(perServer[0]! + perServer[1]!);
      expect(await budget.getAttribute('data-over')).toBe('false');
      expect(await page.getByTestId('budget-warning').count()).toBe(0);

      // Tokens per tool in the tools panel add up to the server's figure (all of memory's tools are enabled and model-visible).
      await page.locator('[data-server="memory"]').getByRole('button', { name: 'Tools' }).click();
      // The panel asks for the server's tools over the socket: wait for its rows before reading them all.
      await page.locator('[aria-label="Tools of memory"] [data-testid="tool-tokens"]').first().waitFor();
      const toolTokens = await page.locator('[aria-label="Tools of memory"] [data-testid="tool-tokens"]').allInnerTexts();
      expect(toolTokens.length).toBeGreaterThan(5);
      expect(toolTokens.map(tokens).reduce((a, b) => a + b, 0)).toBe(perServer[1]);

      // A budget under the catalog: the warning, and the chat goes on demand. Pin memory: it stays loaded.
      await budget.getByRole('button', { name: 'Budget…' }).click();
      await page.getByTestId('budget-threshold').fill('1000');
      await budget.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => budget.getAttribute('data-over')).toBe('true');
      expect(await page.getByTestId('budget-warning').innerText()).toMatch(/^The enabled tools take [\d,]+ tokens, over your budget of 1,000 tokens\. The chat sends no always-loaded tools and a search tool/);
      // The row beside an open details pane keeps only its name and actions: close the pane to reach the switch.
      await page.getByRole('button', { name: 'Close the details' }).click();
      await page.getByLabel('Always load the tools of memory').check();
      await expect.poll(() => page.getByTestId('budget-warning').innerText()).toMatch(/The chat sends \d+ always-loaded tools \([\d,]+ tokens\) and a search tool/);
      await shot(page, 'tools-on-demand-servers');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
      await useFakeModel(page, llm);
      await page.getByTestId('composer-input').fill('What is 20 + 22?');
      await page.getByTestId('composer-input').press('Enter');
      const dialog = page.getByTestId('approval-dialog');
      await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await page.getByTestId('approval-server').innerText()).toBe('everything');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      await expect.poll(() => page.locator('[data-testid="message"][data-role="assistant"]').last().innerText(), { timeout: 20_000 }).toContain('The answer: The sum of 20 and 22 is 42.');

      const [first, second] = llm.requests;
      expect(offered(first!)[0]).toBe('find_tools');
      expect(offered(first!).filter((n) => n.startsWith('everything__'))).toEqual([]);
      expect(offered(first!).filter((n) => n.startsWith('memory__')).length).toBeGreaterThan(5);
      expect(offered(second!)).toContain('everything__get-sum');
      const found = page.locator('[data-testid="tool-card"][data-call-id="call_find"]');
      expect(await found.getAttribute('data-state')).toBe('succeeded');
      expect(await found.innerText()).toContain('searched for "add two numbers"');
      expect(await found.getByTestId('loaded-tools').innerText()).toMatch(/Loaded for this conversation:[\s\S]*get-sum on everything/);
      expect(await page.locator('[data-testid="tool-card"][data-call-id="call_sum"]').getAttribute('data-state')).toBe('succeeded');
      await shot(page, 'tools-on-demand-chat');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await app.stop();
      await llm.close();
    }
  });
});
