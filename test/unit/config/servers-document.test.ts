import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rawEntries } from '../../../src-main/core/config/claude-desktop';
import { addServer } from '../../../src-main/core/config/config-writer';
import { parseConfigText } from '../../../src-main/core/config/parse-config-file';
import type { ConfigSource } from '../../../src-main/core/config/server-config';
import { parseServerSnippet } from '../../../src-main/core/config/server-snippet';
import { lineColumn, readServersDocument } from '../../../src-preload/contract/servers-document';
import { previewSnippet } from '../../../src-renderer/lib/servers/entry-summary';

const own: ConfigSource = { path: '/h/servers.json', origin: 'switchboard', userWritten: true };

// "mcpServers" first in the text, so a reader that follows text order (not the rule) is caught.
const BOTH = '{\n  "mcpServers": { "old": { "command": "a" } },\n  "servers": { "new": { "command": "b" } }\n}';

describe('readServersDocument', () => {
  it.each([
    ['ours and VS Code\'s "servers"', '{"servers": {"a": {"command": "x"}}}', {}, 'servers', ['a'], undefined],
    ['Claude Desktop\'s "mcpServers"', '{"mcpServers": {"a": {"command": "x"}}}', {}, 'mcpServers', ['a'], undefined],
    ['both: "servers" wins, "mcpServers" is named as ignored', BOTH, {}, 'servers', ['new'], 'mcpServers'],
    ['neither key: no entries', '{"a": {"command": "x"}}', {}, undefined, [], undefined],
    ['neither key, bare entries asked for', '{"a": {"command": "x"}}', { bare: true }, undefined, ['a'], undefined],
    ['comments and trailing commas', '// c\n{"servers": {"a": {},},}', {}, 'servers', ['a'], undefined],
  ])('reads %s', (_what, text, options, key, names, ignored) => {
    const doc = readServersDocument(text, options);
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect([doc.key, Object.keys(doc.entries), doc.ignored]).toEqual([key, names, ignored]);
  });

  it.each([
    ['a syntax error, with line and column', '{\n  "servers": {\n', { ok: false, fault: 'syntax', line: 3, column: 1, reason: 'close brace expected' }],
    ['a top level that is not an object', '[]', { ok: false, fault: 'top' }],
    ['"servers" that is not an object', '{"servers": null, "mcpServers": {}}', { ok: false, fault: 'entries', key: 'servers', top: { servers: null, mcpServers: {} } }],
    ['"mcpServers" that is not an object', '{"mcpServers": []}', { ok: false, fault: 'entries', key: 'mcpServers', top: { mcpServers: [] } }],
  ])('refuses %s', (_what, text, expected) => {
    expect(readServersDocument(text)).toEqual(expected);
  });

  it('counts lines and columns from 1', () => {
    expect(lineColumn('ab\ncd', 0)).toEqual({ line: 1, column: 1 });
    expect(lineColumn('ab\ncd', 4)).toEqual({ line: 2, column: 2 });
  });
});

describe('every reader of a servers document follows the one rule', () => {
  it('the config loader reads "servers" and says "mcpServers" was ignored, where it is', () => {
    const parsed = parseConfigText(BOTH, own);
    expect(parsed.servers.map((s) => s.name)).toEqual(['new']);
    expect(parsed.problems).toEqual([
      {
        file: own.path,
        line: 2,
        column: 3,
        message: '/h/servers.json: "mcpServers" was ignored because "servers" is present too; keep your servers under one of them',
      },
    ]);
  });

  it('the import and secret migration read the same entries', () => {
    expect(Object.keys(rawEntries(BOTH))).toEqual(['new']);
  });

  it('the paste preview shows the same entries and the paste itself is refused, not half read', () => {
    expect(previewSnippet(BOTH)?.map((e) => e.name)).toEqual(['new']);
    expect(parseServerSnippet(BOTH, own)).toEqual({
      ok: false,
      message: 'the pasted text has both "servers" and "mcpServers"; paste the servers under one of them',
    });
  });

  it('the writer adds to "servers" and leaves "mcpServers" as it was', async () => {
    const home = await mkdtemp(join(tmpdir(), 'sb-doc-'));
    try {
      await writeFile(join(home, 'servers.json'), BOTH);
      await addServer(home, 'added', { command: 'c' });
      expect(JSON.parse(await readFile(join(home, 'servers.json'), 'utf8'))).toEqual({
        mcpServers: { old: { command: 'a' } },
        servers: { new: { command: 'b' }, added: { command: 'c' } },
      });
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
