import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import electronViteConfig from '../../../electron.vite.config';
import { MAIN_OUTPUT } from '../../../main-output.config';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const nonAscii = (text: string) => [...text].filter((c) => c.charCodeAt(0) > 0x7f);

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

// Two bytes a character for the whole script in V8's memory, for one arrow in one message (main-output.config.ts).
describe('main-process code is written out in ASCII', () => {
  it('escapes what is not ASCII, keeps the same strings and patterns, and drops doc comments', async () => {
    dir = await mkdtemp(join(tmpdir(), 'switchboard-main-output-'));
    await writeFile(
      join(dir, 'entry.js'),
      [
        '/** Servers → Logs: a doc comment with an arrow in it. */',
        'export const hint = (server) => `read its log (Servers → ${server} → Logs)…`;',
        "export const quotes = (text) => text.replace(/[’‘]/g, \"'\");",
        "export const masked = '••••••';",
      ].join('\n'),
    );
    await build({ configFile: false, logLevel: 'silent', root: dir, build: { ssr: join(dir, 'entry.js'), outDir: join(dir, 'out'), rollupOptions: { output: { ...MAIN_OUTPUT, entryFileNames: 'entry.mjs' } } } });
    const written = readFileSync(join(dir, 'out/entry.mjs'), 'utf8');
    expect(nonAscii(written)).toEqual([]);
    expect(written).not.toContain('a doc comment');
    const built = (await import(pathToFileURL(join(dir, 'out/entry.mjs')).href)) as { hint: (s: string) => string; quotes: (t: string) => string; masked: string };
    expect(built.hint('files')).toBe('read its log (Servers → files → Logs)…');
    expect(built.quotes('it’s ‘x’')).toBe("it's 'x'");
    expect(built.masked).toBe('••••••');
  });

  it('is how electron-vite writes out/main', () => {
    const config = electronViteConfig as { main?: { build?: { rollupOptions?: { output?: unknown } } } };
    expect(config.main?.build?.rollupOptions?.output).toEqual(MAIN_OUTPUT);
  });

  // npm test builds out/ before the tests run.
  it.skipIf(!existsSync(join(root, 'out/main')))('every file of the built out/main is ASCII', () => {
    const files = readdirSync(join(root, 'out/main'), { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'));
    expect(files.length).toBeGreaterThan(3);
    for (const file of files) expect({ file, nonAscii: nonAscii(readFileSync(join(root, 'out/main', file), 'utf8')).slice(0, 5) }).toEqual({ file, nonAscii: [] });
  });
});
