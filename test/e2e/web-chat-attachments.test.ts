/**
 * Attachments as real content, in Chromium through web mode: an image from the file picker, one
 * pasted, and a resource of server-everything go to the fake OpenAI-compatible endpoint as content
 * parts (image_url data URLs, the resource's text), the message shows them, and an image a tool
 * returns (server-everything's get-tiny-image) reaches the model as an image.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLlmServer, type RecordedRequest } from '../fixtures/llm/fake-llm-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { makePng } from './support/png';
import { useFakeModel } from './support/ui-tour';
import { startWebApp } from './support/web-app';

const everything = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const missing = chromiumMissingReason();
if (missing) console.warn(`chat attachments e2e skipped: ${missing}`);

/** A 96×64 picture: blue sky over green ground, with a sun. */
const PICTURE = makePng(96, 64, (x, y) => ((x - 70) ** 2 + (y - 16) ** 2 < 90 ? [250, 200, 40] : y < 40 ? [90, 150, 230] : [60, 170, 80]));
/** A 32×32 checkerboard, pasted. */
const PASTED = makePng(32, 32, (x, y) => ((x >> 3) + (y >> 3)) % 2 ? [30, 30, 30] : [240, 240, 240]);

type Part = { type: string; text?: string; image_url?: { url: string } };
const userParts = (request: RecordedRequest, which = 0): Part[] => (request.body.messages as { role: string; content: Part[] | string }[]).filter((m) => m.role === 'user').at(which)!.content as Part[];

describe.skipIf(missing !== undefined)('chat attachments in web mode (Chromium, server-everything, fake LLM)', { timeout: 90_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('sends a picked image, a pasted image and a resource as content parts, shows them, and passes a tool\'s image on', async () => {
    const llm = await startFakeLlmServer([
      { text: 'A sunny landscape, a checkerboard, and the feature list.' },
      { toolCalls: [{ id: 'call_tiny', name: 'everything__get-tiny-image', args: {} }] },
      { text: 'That is the MCP logo.' },
    ]);
    const app = await startWebApp(async (home) => {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
    });
    const page = await browser.newPage({ viewport: { width: 1100, height: 860 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    try {
      await page.goto(app.url);
      await expect.poll(() => page.locator('[data-server="everything"]').getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' }).click();
      await useFakeModel(page, llm);

      await page.getByTestId('image-picker').setInputFiles({ name: 'landscape.png', mimeType: 'image/png', buffer: PICTURE });
      const chips = page.getByTestId('attachments');
      await expect.poll(() => chips.locator('li[data-kind="image"]').count(), { timeout: 10_000 }).toBe(1);
      // A paste of an image file (as a screenshot tool puts it on the clipboard).
      await page.getByTestId('composer-input').evaluate((textarea, base64) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const data = new DataTransfer();
        data.items.add(new File([bytes], 'checker.png', { type: 'image/png' }));
        textarea.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      }, PASTED.toString('base64'));
      await expect.poll(() => chips.locator('li[data-kind="image"]').count(), { timeout: 10_000 }).toBe(2);
      // A file of a type no provider takes is refused at once, with the reason.
      await page.getByTestId('image-picker').setInputFiles({ name: 'scan.bmp', mimeType: 'image/bmp', buffer: Buffer.from('BM not really') });
      await expect.poll(() => page.getByRole('alert').filter({ hasText: 'scan.bmp' }).innerText()).toBe('"scan.bmp" is image/bmp; attach PNG, JPEG, GIF or WebP images');

      await page.getByRole('button', { name: 'Attach a resource' }).click();
      await page.getByRole('dialog', { name: 'Attach a resource' }).getByRole('button', { name: /features\.md/ }).click();
      expect(await chips.innerText()).toContain('features.md');
      await mkdir('test-results', { recursive: true });
      await page.screenshot({ path: 'test-results/chat-attachments-composer.png' });

      await page.getByTestId('composer-input').fill('What is in these?');
      await page.getByTestId('composer-input').press('Enter');
      const lastAssistant = page.locator('[data-testid="message"][data-role="assistant"]').last();
      await expect.poll(() => lastAssistant.innerText(), { timeout: 20_000 }).toContain('A sunny landscape');

      const parts = userParts(llm.requests[0]!);
      expect(parts.map((p) => p.type)).toEqual(['text', 'text', 'image_url', 'text', 'image_url', 'text']);
      expect(parts[0]!.text).toBe('What is in these?');
      expect(parts[1]!.text).toBe('Attached image "landscape.png"');
      expect(parts[2]!.image_url!.url).toBe(`data:image/png;base64,${PICTURE.toString('base64')}`);
      expect(parts[3]!.text).toBe('Attached image "checker.png"');
      expect(parts[4]!.image_url!.url).toBe(`data:image/png;base64,${PASTED.toString('base64')}`);
      expect(parts[5]!.text).toMatch(/^Attached resource demo:\/\/resource\/static\/document\/features\.md from server "everything" \(text\/markdown\):\n/);
      // The message shows what was attached: both pictures and the resource.
      const shown = page.getByTestId('message-attachments').last();
      await expect.poll(() => shown.locator('img').count()).toBe(2);
      expect(await shown.locator('img').first().getAttribute('alt')).toBe('landscape.png');
      expect(await shown.innerText()).toContain('features.md (everything)');
      expect(await chips.count()).toBe(0);
      await page.screenshot({ path: 'test-results/chat-attachments-sent.png' });

      // A tool's image goes to the model as an image, not only as "[image …]" text.
      await page.getByTestId('composer-input').fill('Show me the tiny image');
      await page.getByTestId('composer-input').press('Enter');
      const dialog = page.getByTestId('approval-dialog');
      await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      await expect.poll(() => lastAssistant.innerText(), { timeout: 20_000 }).toContain('That is the MCP logo.');
      const afterTool = llm.requests[2]!.body.messages as { role: string; content: Part[] | string }[];
      const toolIndex = afterTool.findIndex((m) => m.role === 'tool');
      const images = afterTool[toolIndex + 1]!;
      expect(images.role).toBe('user');
      expect((images.content as Part[]).map((p) => p.type)).toEqual(['text', 'text', 'image_url']);
      expect((images.content as Part[])[2]!.image_url!.url).toMatch(/^data:image\/png;base64,iVBOR/);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await app.stop();
      await llm.close();
    }
  });
});
