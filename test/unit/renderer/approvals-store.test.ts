import { describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { bundle, openHarness } from './support/browser-harness';

const missing = chromiumMissingReason();

type State = { pending: string[]; forChat: string[]; first: string | null };

const toolCall = (id: string, origin: string, conversationId?: string) => ({
  kind: 'tool_call',
  id,
  origin,
  requestedAt: Number(id.replace(/\D/g, '')),
  ...(conversationId ? { conversationId } : {}),
  server: 'everything',
  tool: { name: 'echo', qualifiedName: 'everything__echo', server: 'everything', inputSchema: { type: 'object' } },
  args: {},
});

describe('ApprovalsStore in Chromium', () => {
  it.skipIf(missing)('keeps a run the person started in the Tools panel out of Chat (its badge and its dialog)', async () => {
    const browser = await launchChromium();
    try {
      const { page, errors } = await openHarness(browser, await bundle('test/unit/renderer/support/approvals-store-entry.ts'));
      await page.waitForFunction(() => 'raise' in window);
      const raise = (request: unknown) => page.evaluate((r) => (window as unknown as { raise: (r: unknown) => void }).raise(r), request);
      const state = () => page.evaluate(() => (window as unknown as { approvalsState: () => State }).approvalsState());
      await raise(toolCall('r1', 'person'));
      await expect.poll(async () => (await state()).pending).toEqual(['r1']);
      expect(await state()).toEqual({ pending: ['r1'], forChat: [], first: null });
      await raise(toolCall('r2', 'model', 'conv-1'));
      await expect.poll(async () => (await state()).forChat).toEqual(['r2']);
      expect((await state()).first).toBe('r2');
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
