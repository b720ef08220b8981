/**
 * Tool calls that run as MCP tasks, end to end in Chromium through web mode: the built app with the
 * stdio task server fixture and a scripted OpenAI-compatible endpoint on 127.0.0.1 (the only fake).
 * The tool card shows the task's status as the server reports it, and its Cancel ends the task on
 * the server (the card shows the status the server answered tasks/cancel with); the tools panel's
 * Run shows the same status and the result.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fixtures/llm/fake-llm-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { useFakeModel } from './support/ui-tour';
import { startWebApp } from './support/web-app';

const taskServer = resolve('test/fixtures/servers/task-tools.mjs');
const missing = chromiumMissingReason();
if (missing) console.warn(`task calls e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('tool calls run as tasks in web mode (Chromium, task server fixture)', { timeout: 120_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function shot(target: Page | Locator, name: string): Promise<void> {
    await mkdir('test-results', { recursive: true });
    await target.screenshot({ path: `test-results/${name}.png` });
  }

  it("shows the task's status on the tool card, cancels it on the server, and shows it in the tools panel's Run", async () => {
    const llm = await startFakeLlmServer([{ text: 'Starting the long job.', toolCalls: [{ id: 'call_task', name: 'tasks__slow-task', args: { ms: 30_000, steps: 60 } }] }, { text: 'Stopped as you asked.' }]);
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { tasks: { command: process.execPath, args: [taskServer], approval: 'auto' } } })));
    const page = await browser.newPage({ viewport: { width: 1100, height: 800 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    try {
      await page.goto(app.url);
      await expect.poll(() => page.locator('[data-server="tasks"]').getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
      await useFakeModel(page, llm);
      await page.getByTestId('composer-input').fill('Run the long job');
      await page.getByTestId('composer-input').press('Enter');
      const card = page.locator('[data-testid="tool-card"][data-call-id="call_task"]');
      const status = card.getByTestId('task-status');
      await expect.poll(() => status.innerText(), { timeout: 20_000 }).toMatch(/^Task working\s+step [2-9] of 60/);
      expect(await status.getAttribute('data-task-status')).toBe('working');
      expect(await card.getAttribute('data-state')).toBe('running');
      await shot(card, 'task-card-working');

      await card.getByRole('button', { name: 'Cancel tasks__slow-task' }).click();
      await expect.poll(() => card.getAttribute('data-state'), { timeout: 20_000 }).toBe('cancelled');
      // "cancelled" here is the server's answer to tasks/cancel, not Switchboard's guess.
      expect(await status.getAttribute('data-task-status')).toBe('cancelled');
      expect(await status.innerText()).toMatch(/^Task cancelled\s+Client cancelled task execution\./);
      await expect.poll(() => page.locator('[data-testid="message"][data-role="assistant"]').last().innerText(), { timeout: 20_000 }).toContain('Stopped as you asked.');
      expect((llm.requests[1]!.body.messages as { role: string; content: unknown }[]).filter((m) => m.role === 'tool').map((m) => String(m.content))).toEqual(['The user cancelled this tool call while it ran.']);
      await shot(card, 'task-card-cancelled');

      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Servers' }).click();
      await page.locator('[data-server="tasks"]').getByRole('button', { name: 'Tools', exact: true }).click();
      const tool = page.locator('[data-tool="tasks__slow-task"]');
      await tool.getByRole('button', { name: 'Run slow-task' }).click();
      const runner = tool.getByTestId('tool-runner');
      await runner.getByLabel('ms *').fill('3000');
      await runner.getByLabel('steps').fill('3');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      await expect.poll(() => runner.getByTestId('task-status').innerText(), { timeout: 20_000 }).toMatch(/^Task working\s+step 1 of 3/);
      expect(await runner.getByRole('button', { name: 'Cancel the run of slow-task' }).isVisible()).toBe(true);
      await shot(tool, 'task-run-working');
      await expect.poll(() => runner.getByTestId('run-output').innerText(), { timeout: 20_000 }).toContain('finished after 3000 ms');
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await app.stop();
      await llm.close();
    }
  });
});
