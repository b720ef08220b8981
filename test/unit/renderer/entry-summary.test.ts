import { describe, expect, it } from 'vitest';
import { previewSnippet, summarizeEntry } from '../../../src-renderer/lib/servers/entry-summary';

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
