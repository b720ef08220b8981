import { describe, expect, it } from 'vitest';
import type { ConfigSource } from '../../../src-main/core/config/server-config';
import { parseServerSnippet } from '../../../src-main/core/config/server-snippet';

const source: ConfigSource = { path: '/h/servers.json', origin: 'switchboard', userWritten: true };

describe('parseServerSnippet', () => {
  it('reads Claude Desktop\'s {"mcpServers": {...}} as written', () => {
    const text = '{ "mcpServers": { "fs": { "command": "npx", "args": ["-y", "fs"] }, "gh": { "url": "https://gh.example/mcp" } } }';
    expect(parseServerSnippet(text, source)).toEqual({
      ok: true,
      entries: [
        { name: 'fs', entry: { command: 'npx', args: ['-y', 'fs'] } },
        { name: 'gh', entry: { url: 'https://gh.example/mcp' } },
      ],
    });
  });

  it('reads a bare {"name": {...}} and VS Code\'s {"servers": {...}}', () => {
    expect(parseServerSnippet('{"fs": {"command": "x"}}', source)).toEqual({ ok: true, entries: [{ name: 'fs', entry: { command: 'x' } }] });
    expect(parseServerSnippet('{"servers": {"v": {"type": "http", "url": "https://v.example"}}}', source)).toEqual({
      ok: true,
      entries: [{ name: 'v', entry: { type: 'http', url: 'https://v.example' } }],
    });
  });

  it.each([
    ['empty text', '  ', 'the pasted text is empty; paste {"mcpServers": {"name": {...}}} or {"name": {...}}'],
    ['invalid JSON', '{\n  "fs": { "command": "x" \n}', 'the pasted text is not valid JSON (line 3, column 2: close brace expected)'],
    ['an array', '[{"command": "x"}]', 'the pasted text must be a JSON object; paste {"mcpServers": {"name": {...}}} or {"name": {...}}'],
    ['a string', '"npx fs"', 'the pasted text must be a JSON object; paste {"mcpServers": {"name": {...}}} or {"name": {...}}'],
    ['a server without a name', '{"command": "npx", "args": []}', 'the pasted server has no name; wrap it as {"name": {...}}'],
    ['mcpServers that is not an object', '{"mcpServers": []}', '"mcpServers" must be an object of named servers'],
    ['no servers', '{"mcpServers": {}}', 'the pasted text holds no servers; paste {"mcpServers": {"name": {...}}} or {"name": {...}}'],
    ['a bad entry among good ones', '{"ok": {"command": "x"}, "bad": {"command": "x", "url": "https://x"}}', 'server "bad": has both "command" and "url"; a server is either local (command) or remote (url)'],
    ['a bad name', '{"my server": {"command": "x"}}', 'server "my server": server name may use only letters, digits, "_", "." and "-"'],
  ])('refuses %s with an exact message', (_what, text, message) => {
    expect(parseServerSnippet(text, source)).toEqual({ ok: false, message });
  });
});
