// docs/SECURITY.md stays the truth about the code: every requirement code cited in a comment or a
// test title has its row, and every file and test a row cites still exists under that name.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const doc = readFileSync(join(root, 'docs/SECURITY.md'), 'utf8');

interface Row {
  code: string;
  enforcedIn: string;
  testedBy: string;
}

/** The requirement tables' rows: | code | requirement | why | enforced in | tested by |. */
const rows: Row[] = doc
  .split('\n')
  .filter((line) => /^\| [A-Z]\d{1,2} \|/.test(line))
  .map((line) => line.slice(1, -1).split('|').map((cell) => cell.trim()))
  .filter((cells) => cells.length === 5)
  .map(([code, , , enforcedIn, testedBy]) => ({ code: code!, enforcedIn: enforcedIn!, testedBy: testedBy! }));

/** A requirement code: a capital and one or two digits, standing alone (so not the Z0 of [a-zA-Z0-9]). */
const CODE = /(?<![\w-])[A-Z]\d{1,2}(?![\w-])/g;
/** A file named in the "enforced in" column, e.g. `src-main/core/url-policy.ts`. */
const SOURCE_FILE = /`([^`\s]+\.(?:ts|svelte|yml))`/;

function filesUnder(dir: string, extensions: RegExp): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    // The bench's build output (bench/.shipped) is not the project's text: git ignores it.
    .filter((entry) => entry.isFile() && extensions.test(entry.name) && !entry.parentPath.includes('node_modules') && !entry.parentPath.includes('.shipped'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Codes in the comments of the product's sources (comment text only, so string data never counts). */
function codesInComments(file: string): string[] {
  const codes: string[] = [];
  for (const line of readFileSync(join(root, file), 'utf8').split('\n')) {
    const trimmed = line.trim();
    const comment = /^(\*|\/\*|#|<!--)/.test(trimmed) ? trimmed : line.includes('// ') ? line.slice(line.indexOf('// ')) : '';
    codes.push(...(comment.match(CODE) ?? []));
  }
  return codes;
}

/** Codes a test cites: "(O1, O11)", "(O6, RFC 9207)" or "SECURITY R5" in its titles and comments. */
function codesInTests(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const cited = [...text.matchAll(/\(((?:SECURITY )?[A-Z]\d{1,2}(?:, [^)]*)?)\)|SECURITY ((?:[A-Z]\d{1,2}(?:, )?)+)/g)];
  return cited.flatMap((m) => (m[1] ?? m[2] ?? '').match(CODE) ?? []);
}

describe('docs/SECURITY.md', () => {
  it('has one row per code, each with where it is enforced and at least one test', () => {
    const codes = rows.map((r) => r.code);
    expect(codes.length).toBeGreaterThanOrEqual(36);
    expect(new Set(codes).size).toBe(codes.length);
    for (const row of rows) {
      expect(row.enforcedIn, row.code).toMatch(SOURCE_FILE);
      expect(row.testedBy, row.code).toMatch(/\.test\.ts` › "/);
    }
  });

  it('documents every code the code comments and the tests cite', () => {
    const documented = new Set(rows.map((r) => r.code));
    const sources = [...['src-main', 'src-preload', 'src-renderer', 'bench'].flatMap((d) => filesUnder(d, /\.(ts|svelte|mjs|js)$/)), 'electron-builder.yml'];
    const cited = new Map<string, string>();
    for (const file of sources) for (const code of codesInComments(file)) cited.set(code, file);
    for (const file of filesUnder('test', /\.(ts|mjs)$/)) for (const code of codesInTests(file)) cited.set(code, file);
    expect(cited.size).toBeGreaterThan(30);
    const missing = [...cited].filter(([code]) => !documented.has(code)).map(([code, file]) => `${code} (cited in ${file})`);
    expect(missing).toEqual([]);
  });

  it('cites only source files that exist', () => {
    const missing = rows.flatMap((row) =>
      [...row.enforcedIn.matchAll(new RegExp(SOURCE_FILE, 'g'))].map((m) => m[1]!).filter((path) => !existsSync(join(root, path))).map((path) => `${row.code}: ${path}`),
    );
    expect(missing).toEqual([]);
  });

  it('cites only tests that exist, by their exact names', () => {
    const problems: string[] = [];
    for (const row of rows) {
      for (const entry of row.testedBy.split('<br>')) {
        if (entry.startsWith('Conformance:')) continue;
        const cited = /^`([^`]+)` › "(.*)"(?: \(.*\))?$/.exec(entry);
        if (!cited) {
          problems.push(`${row.code}: cannot read "${entry}"`);
          continue;
        }
        const [, file, written] = cited as unknown as [string, string, string];
        // The doc writes < and > as entities, so GitHub shows them instead of taking them for HTML.
        const name = written.replaceAll('&lt;', '<').replaceAll('&gt;', '>');
        const path = join(root, 'test', file);
        if (!existsSync(path)) problems.push(`${row.code}: no file test/${file}`);
        else if (!readFileSync(path, 'utf8').replaceAll('\\', '').includes(name)) problems.push(`${row.code}: no test "${name}" in test/${file}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
