import { describe, expect, it } from 'vitest';
import { pasteProblem, previewSnippet, summarizeEntry } from '../../../src-renderer/lib/servers/entry-summary';

describe('summarizeEntry', () => {
  it('shows a local entry in full, with env names only', () => {
    expect(summarizeEntry({ command: 'npx', args: ['-y', 'pkg'], env: { KEY: 'secret' }, cwd: '/p' })).toEqual({
      kind: 'local',
      command: 'npx',
      args: ['-y', 'pkg'],
      envKeys: ['KEY'],
      cwd: '/p',
    });
  });

  it('shows a remote entry with header names only and its transport', () => {
    expect(summarizeEntry({ url: 'https://x/mcp', type: 'sse', headers: { Authorization: 'Bearer t' } })).toEqual({
      kind: 'remote',
      url: 'https://x/mcp',
      transport: 'sse',
      headerKeys: ['Authorization'],
    });
  });

  it('says when an entry is neither', () => {
    expect(summarizeEntry({ args: [] })).toEqual({ kind: 'unknown' });
  });
});

describe('previewSnippet', () => {
  it('reads the mcpServers, servers and bare shapes, comments and trailing commas allowed', () => {
    const entry = { command: 'node' };
    expect(previewSnippet('{"mcpServers": {"a": {"command": "node"}}}')).toEqual([{ name: 'a', entry }]);
    expect(previewSnippet('{"servers": {"a": {"command": "node"}}}')).toEqual([{ name: 'a', entry }]);
    expect(previewSnippet('// mine\n{"a": {"command": "node"},}')).toEqual([{ name: 'a', entry }]);
  });

  it('previews nothing for text that is not an object of named servers', () => {
    expect(previewSnippet('{"command": "node"}')).toBeUndefined();
    expect(previewSnippet('{"a": ')).toBeUndefined();
    expect(previewSnippet('[1]')).toBeUndefined();
    expect(previewSnippet('{}')).toBeUndefined();
  });
});

describe('pasteProblem', () => {
  it('names the line and column of a syntax error at once', () => {
    expect(pasteProblem('{\n  "mcpServers": {\n    "memo": { "command" "node" }\n  }\n}')).toBe('Not valid JSON yet: line 3, column 25: colon expected.');
  });

  it('sends a command line pasted as a snippet to the Command field, which splits it', () => {
    expect(pasteProblem('npx -y @modelcontextprotocol/server-memory')).toBe('This is not JSON (a snippet starts with "{"). A command line goes into Add server → Command, which splits it.');
    expect(pasteProblem('  {"mcpServers": ')).toMatch(/^Not valid JSON yet: line 1/);
  });

  it('says what shape is wanted when the JSON is valid but names no servers', () => {
    expect(pasteProblem('[1]')).toContain('must be a JSON object');
    expect(pasteProblem('{"command": "npx"}')).toContain('without its name');
    expect(pasteProblem('{"mcpServers": 3}')).toBe('"mcpServers" must be an object of named servers.');
    expect(pasteProblem('{}')).toBe('No servers in this snippet.');
  });

  it('has nothing to say about an empty box or a good snippet', () => {
    expect(pasteProblem('  ')).toBeUndefined();
    expect(pasteProblem('{"mcpServers": {"a": {"command": "npx"}}}')).toBeUndefined();
  });
});
