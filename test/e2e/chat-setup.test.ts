/**
 * Chat before it works: the hint with no model, switching provider in Model settings, and an
 * endpoint that does not answer — in Chromium through web mode, with the fake LLM (a local
 * server speaking OpenAI's wire format) as the endpoint that comes back.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer } from '../fixtures/llm/fake-llm-server';
import { closedPort } from '../fixtures/net/closed-port';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const missing = chromiumMissingReason();

const closedPortUrl = async () => `http://127.0.0.1:${await closedPort()}/v1`;

describe.skipIf(missing !== undefined)('chat setup and an unreachable endpoint (Chromium, web mode)', { timeout: 120_000 }, () => {
  let browser: Browser;
  let app: RunningWebApp;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers: {} })));
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await page.goto(app.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
  });
  afterAll(async () => {
    await page?.close();
    await app?.stop();
    await browser?.close();
  });

  const panel = () => page.getByRole('region', { name: 'Model settings' });

  it('with no key, says where the model settings really are', async () => {
    const hint = page.getByTestId('setup-hint');
    await hint.waitFor();
    const text = await hint.innerText();
    expect(text).toContain('open Model settings (the button at the top of Chat) and store the key there');
    expect(text).not.toContain('Settings → Model');
  });

  it('names its new-conversation button in words a person reads, spaced, on a wide window', async () => {
    const list = page.getByRole('complementary', { name: 'Conversations' });
    // Svelte drops the space at a tag's start: "+ Newconversation" is what a person saw.
    expect(await list.locator('button.new').innerText()).toBe('+ New conversation');
    await list.getByRole('button', { name: '+ New conversation', exact: true }).waitFor();
  });

  it('switching provider shows that provider\'s model and key at once, and switching back brings back what was saved', async () => {
    await page.getByRole('button', { name: 'Model settings', exact: true }).click();
    const model = panel().getByLabel('Model', { exact: true });
    expect(await model.inputValue()).toBe('claude-sonnet-4-5');
    expect(await panel().getByTestId('key-name').innerText()).toContain('anthropic-api-key');
    await panel().getByLabel('Provider').selectOption('openai-compatible');
    expect(await model.inputValue()).toBe('gpt-4.1-mini');
    expect(await panel().getByTestId('key-name').innerText()).toContain('openai-api-key');
    await panel().getByLabel('Provider').selectOption('anthropic');
    expect(await model.inputValue()).toBe('claude-sonnet-4-5');
    expect(await panel().getByTestId('key-name').innerText()).toContain('anthropic-api-key');
  });

  it('an endpoint that does not answer is a temporary failure with its fix and a Retry that works once it is back, after a reload too', async () => {
    await panel().getByLabel('Provider').selectOption('openai-compatible');
    await panel().getByLabel('Base URL').fill(await closedPortUrl());
    await panel().getByLabel('Model', { exact: true }).fill('fake-model-small');
    await panel().getByRole('button', { name: 'Save settings' }).click();
    await panel().getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    await panel().getByRole('button', { name: 'Close' }).click();

    await page.getByTestId('composer-input').fill('hello?');
    await page.getByTestId('composer-input').press('Enter');
    const failure = page.getByTestId('turn-status');
    await failure.waitFor({ timeout: 30_000 });
    expect(await failure.innerText()).toContain('cannot reach the endpoint (ECONNREFUSED)');
    expect(await failure.getByTestId('diagnosis').getAttribute('data-class')).toBe('transient');
    expect(await failure.getByTestId('diagnosis').innerText()).toContain('check the endpoint URL in Model settings');
    // Retry is offered at once, not only once the conversation is read back.
    expect(await failure.getByRole('button', { name: 'Retry' }).count()).toBe(1);

    // A reload forgets the failure's words (they are not stored), but not that the question has no answer.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('complementary', { name: 'Conversations' }).getByRole('button', { name: /^hello\?/ }).click();
    await expect.poll(() => failure.innerText()).toContain('This has no answer yet');
    expect(await failure.getByRole('button', { name: 'Retry' }).count()).toBe(1);

    const llm = await startFakeLlmServer([{ text: 'Back again.' }]);
    try {
      await page.getByRole('button', { name: 'Model settings', exact: true }).click();
      await panel().getByLabel('Base URL').fill(llm.openAiBaseUrl);
      await panel().getByRole('button', { name: 'Save settings' }).click();
      await panel().getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      // A success note goes by itself (issue 23 item 10), as the servers page's do.
      await expect.poll(() => panel().getByRole('status').filter({ hasText: 'Settings saved.' }).count(), { timeout: 30_000 }).toBe(0);
      await panel().getByRole('button', { name: 'Close' }).click();
      await failure.getByRole('button', { name: 'Retry' }).click();
      await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'Back again.' }).waitFor({ timeout: 30_000 });
      expect(await page.getByTestId('turn-status').count()).toBe(0);
      // The retry sent the conversation as stored: the question once, not twice.
      const messages = llm.requests.at(-1)!.body.messages as { role: string; content: unknown }[];
      expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hello?']);
      expect(await page.locator('[data-testid="message"][data-role="user"]').count()).toBe(1);
    } finally {
      await llm.close();
    }
  });
});
