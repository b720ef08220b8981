import { describe, expect, it } from 'vitest';
import { imageDataUrl, isLong } from '../../../src-renderer/lib/chat/tool-content';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { bundle, openHarness } from './support/browser-harness';

const missing = chromiumMissingReason();

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('imageDataUrl', () => {
  it('builds a data: URL for raster images with clean base64', () => {
    expect(imageDataUrl('image/PNG', PNG)).toBe(`data:image/png;base64,${PNG}`);
  });

  it('refuses SVG (it can carry script), unknown types and payloads that are not base64', () => {
    expect(imageDataUrl('image/svg+xml', PNG)).toBeUndefined();
    expect(imageDataUrl('text/html', PNG)).toBeUndefined();
    expect(imageDataUrl('image/png', 'AAAA"><script>')).toBeUndefined();
    expect(imageDataUrl('image/png', 'abc')).toBeUndefined();
    expect(imageDataUrl('image/png', '')).toBeUndefined();
    expect(imageDataUrl(undefined, PNG)).toBeUndefined();
  });
});

describe('ToolContent in Chromium under the app\'s CSP', () => {
  it.skipIf(missing)('renders each content type from the server as data: text stays text, only clean raster images show', async () => {
    const browser = await launchChromium();
    try {
      const harness = await openHarness(browser, await bundle('test/unit/renderer/support/tool-content-entry.ts'));
      const page = harness.page;
      await page.waitForFunction(() => 'renderContent' in window);
      const blocks = [
        { type: 'text', text: '<img src=x onerror="window.__pwned=1">' },
        { type: 'image', mimeType: 'image/png', data: PNG },
        { type: 'image', mimeType: 'image/svg+xml', data: PNG },
        { type: 'resource', resource: { uri: 'demo://a', mimeType: 'text/plain', text: 'hello' } },
        { type: 'resource', resource: { uri: 'demo://b', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'demo://r/1', name: 'r1', title: 'Resource 1', description: 'first' },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ];
      await page.evaluate((content) => (window as unknown as { renderContent: (c: unknown) => void }).renderContent(content), blocks);
      const text = await page.locator('.content').innerText();
      expect(text).toContain('<img src=x onerror="window.__pwned=1">');
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await page.locator('img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('src')))).toEqual([`data:image/png;base64,${PNG}`]);
      expect(text).toContain('image (image/svg+xml) not shown');
      expect(text).toMatch(/resource\s+demo:\/\/a text\/plain/);
      expect(text).toContain('hello');
      expect(text).toContain('(binary, 4 base64 characters)');
      expect(text).toMatch(/link Resource 1 demo:\/\/r\/1/);
      expect(text).toContain('first');
      expect(text).toContain('4 base64 characters, not played');
      expect(await harness.violations()).toEqual([]);
      expect(harness.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});

describe('isLong', () => {
  it('collapses long text and text with many lines, not short text', () => {
    expect(isLong('x'.repeat(601))).toBe(true);
    expect(isLong('a\n'.repeat(12))).toBe(true);
    expect(isLong('a\n'.repeat(11))).toBe(false);
    expect(isLong('short')).toBe(false);
  });
});
