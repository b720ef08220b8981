import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../../src-main/core/config/parse-config-file';
import type { ConfigSource } from '../../../src-main/core/config/server-config';
import { parseServerSnippet } from '../../../src-main/core/config/server-snippet';

const own: ConfigSource = { path: '/h/servers.json', origin: 'switchboard', userWritten: true };
const vscode: ConfigSource = { path: '/proj/.vscode/mcp.json', origin: 'vscode', userWritten: false };

describe('parseConfigText', () => {
  it('skips a bad entry with its error and location while the rest of the file loads', () => {
    const text = ['{', '  "servers": {', '    "good": { "command": "a" },', '    "bad": { "url": 3 },', '    "also-good": { "url": "https://x.example/mcp" }', '  }', '}'].join('\n');
    const parsed = parseConfigText(text, own);
    expect(parsed.servers.map((s) => s.name)).toEqual(['good', 'also-good']);
    expect(parsed.problems).toEqual([{ file: own.path, server: 'bad', line: 4, column: 5, message: 'server "bad": "url" must be a string' }]);
  });

  it('names a "__proto__" entry as a problem instead of losing it without a word (found by the soak\'s fuzz)', () => {
    const text = ['{', '  "servers": {', '    "good": { "command": "a" },', '    "__proto__": { "command": "b" }', '  }', '}'].join('\n');
    const parsed = parseConfigText(text, own);
    expect(parsed.servers.map((s) => s.name)).toEqual(['good']);
    expect(parsed.problems).toEqual([{ file: own.path, server: '__proto__', line: 4, column: 5, message: 'server "__proto__": server name "__proto__" is reserved' }]);
  });

  it('reads no servers, no "disabled" and no snippet from a top-level "__proto__" (the parser makes it the prototype)', () => {
    const hidden = '{ "__proto__": { "servers": { "sneaky": { "command": "rm" } }, "disabled": true } }';
    expect(parseConfigText(hidden, own)).toEqual({ servers: [], problems: [], mcpDisabled: false });
    const beside = '{ "__proto__": { "mcpServers": { "sneaky": { "command": "rm" } } }, "servers": { "good": { "command": "a" } } }';
    const parsed = parseConfigText(beside, own);
    expect(parsed.servers.map((s) => s.name)).toEqual(['good']);
    expect(parsed.problems).toEqual([]);
    expect(parseServerSnippet('{ "__proto__": { "command": "rm" } }', own).ok).toBe(false);
  });

  it('reports invalid JSON with the file, line and column of the first error and loads nothing', () => {
    const text = '{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}';
    expect(parseConfigText(text, own)).toEqual({
      servers: [],
      mcpDisabled: false,
      invalid: true,
      problems: [{ file: own.path, line: 4, column: 5, message: '/h/servers.json:4:5: invalid JSON (comma expected)' }],
    });
  });

  it('reports trailing garbage after the object as invalid JSON', () => {
    expect(parseConfigText('{"servers": {}} }', own).problems).toEqual([
      { file: own.path, line: 1, column: 17, message: '/h/servers.json:1:17: invalid JSON (end of file expected)' },
    ]);
  });

  it('accepts comments and trailing commas, as VS Code writes them', () => {
    const text = '// mine\n{ "servers": { /* fs */ "fs": { "command": "x", "args": ["a",], }, }, }';
    const parsed = parseConfigText(text, own);
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers.map((s) => s.name)).toEqual(['fs']);
  });

  it('treats a blank file as holding no servers', () => {
    expect(parseConfigText(' \n', own)).toEqual({ servers: [], problems: [], mcpDisabled: false });
  });

  it('accepts the Claude Desktop "mcpServers" shape and the top-level "disabled" switch', () => {
    const parsed = parseConfigText('{ "disabled": true, "mcpServers": { "m": { "command": "x" } } }', own);
    expect(parsed.mcpDisabled).toBe(true);
    expect(parsed.servers.map((s) => [s.name, s.source])).toEqual([['m', own]]);
  });

  it('refuses a top level that is not an object', () => {
    expect(parseConfigText('[]', own).problems).toEqual([{ file: own.path, line: 1, column: 1, message: '/h/servers.json: the top level must be an object' }]);
  });

  it('refuses a servers key that is not an object', () => {
    expect(parseConfigText('{"servers": []}', own).problems).toEqual([
      { file: own.path, line: 1, column: 2, message: '/h/servers.json: "servers" must be an object of named servers' },
    ]);
  });

  it('reads VS Code\'s "servers" with "type" and ignores "inputs" with a warning', () => {
    const text = '{\n  "inputs": [{ "id": "key", "type": "promptString" }],\n  "servers": { "gh": { "type": "http", "url": "https://x.example/mcp" } }\n}';
    const parsed = parseConfigText(text, vscode);
    expect(parsed.servers.map((s) => [s.name, s.kind])).toEqual([['gh', 'remote']]);
    expect(parsed.problems).toEqual([
      { file: vscode.path, line: 2, column: 3, message: '/proj/.vscode/mcp.json: "inputs" are not supported and were ignored; ${input:...} references stay as written', note: true },
    ]);
  });
});
