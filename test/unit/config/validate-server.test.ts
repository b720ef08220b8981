import { describe, expect, it } from 'vitest';
import type { ConfigSource } from '../../../src-main/core/config/server-config';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';

const source: ConfigSource = { path: '/home/u/.config/Switchboard/servers.json', origin: 'switchboard', userWritten: true };

describe('validateServerEntry', () => {
  it('reads a command entry as a stdio server with defaults filled in', () => {
    expect(validateServerEntry('files', { command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, cwd: '/tmp' }, source)).toEqual({
      ok: true,
      server: {
        name: 'files', kind: 'stdio', command: 'npx', args: ['-y', 'pkg'], env: { A: '1' }, cwd: '/tmp',
        enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source,
      },
    });
  });

  it('reads a url entry as a remote server; type picks the transport and an explicit transport wins', () => {
    const remote = (raw: object) => {
      const r = validateServerEntry('r', raw, source);
      return r.ok && r.server.kind === 'remote' ? r.server.transport : r;
    };
    expect(remote({ url: 'https://a.example/mcp' })).toBe('auto');
    expect(remote({ type: 'sse', url: 'https://a.example/sse' })).toBe('sse');
    expect(remote({ type: 'http', url: 'https://a.example/mcp' })).toBe('streamable-http');
    expect(remote({ type: 'http', url: 'https://a.example/mcp', transport: 'sse' })).toBe('sse');
  });

  it('honours "disabled": true (Claude Desktop) and "enabled": false alike', () => {
    const enabled = (raw: object) => {
      const r = validateServerEntry('s', raw, source);
      return r.ok && r.server.enabled;
    };
    expect(enabled({ command: 'x', disabled: true })).toBe(false);
    expect(enabled({ command: 'x', enabled: false })).toBe(false);
    expect(enabled({ command: 'x' })).toBe(true);
  });

  it('accepts a url built from ${...} references and leaves its check to expansion', () => {
    const r = validateServerEntry('r', { url: '${BASE_URL}/mcp' }, source);
    expect(r.ok && r.server.kind === 'remote' && r.server.url).toBe('${BASE_URL}/mcp');
  });

  it.each([
    ['both command and url', 's', { command: 'x', url: 'https://a.example' }, 'server "s": has both "command" and "url"; a server is either local (command) or remote (url)'],
    ['neither command nor url', 's', { args: ['x'] }, 'server "s": needs "command" (a local server) or "url" (a remote server)'],
    ['an unknown type', 's', { type: 'websocket', url: 'wss://a.example' }, 'server "s": unknown type "websocket" (expected stdio, http or sse)'],
    ['type stdio with a url', 's', { type: 'stdio', url: 'https://a.example' }, 'server "s": type "stdio" needs "command"'],
    ['type http with a command', 's', { type: 'http', command: 'x' }, 'server "s": type "http" needs "url"'],
    ['an empty name', '', { command: 'x' }, 'server "": server name is empty'],
    ['a name over 100 characters', 'a'.repeat(101), { command: 'x' }, `server "${'a'.repeat(101)}": server name is over 100 characters`],
    ['a name with a space', 'my server', { command: 'x' }, 'server "my server": server name may use only letters, digits, "_", "." and "-"'],
    ['a name with a slash', 'a/b', { command: 'x' }, 'server "a/b": server name may use only letters, digits, "_", "." and "-"'],
    ['an entry that is not an object', 's', 'npx server', 'server "s": must be an object'],
    ['an entry that is null', 's', null, 'server "s": must be an object'],
    ['an entry that is an array', 's', ['npx'], 'server "s": must be an object'],
    ['a numeric command', 's', { command: 1 }, 'server "s": "command" must be a string'],
    ['an empty command', 's', { command: '' }, 'server "s": "command" must not be empty'],
    ['args as a string', 's', { command: 'x', args: '-y pkg' }, 'server "s": "args" must be an array of strings'],
    ['a number among the args', 's', { command: 'x', args: ['a', 2] }, 'server "s": "args[1]" must be a string'],
    ['env as an array', 's', { command: 'x', env: ['A=1'] }, 'server "s": "env" must be an object of string values'],
    ['a numeric env value', 's', { command: 'x', env: { PORT: 8080 } }, 'server "s": "env.PORT" must be a string'],
    ['a numeric cwd', 's', { command: 'x', cwd: 3 }, 'server "s": "cwd" must be a string'],
    ['a numeric url', 's', { url: 42 }, 'server "s": "url" must be a string'],
    ['a url that does not parse', 's', { url: 'not a url' }, 'server "s": "url" is not a valid URL: not a url'],
    ['a url that is not http(s)', 's', { url: 'ftp://a.example' }, 'server "s": "url" must be http or https, not ftp'],
    ['a boolean header', 's', { url: 'https://a.example', headers: { 'X-Debug': true } }, 'server "s": "headers.X-Debug" must be a string'],
    ['an unknown transport', 's', { url: 'https://a.example', transport: 'ws' }, 'server "s": "transport" must be "auto", "streamable-http" or "sse"'],
    ['enabled as a string', 's', { command: 'x', enabled: 'yes' }, 'server "s": "enabled" must be true or false'],
    ['a timeout as a string', 's', { command: 'x', timeout: '30' }, 'server "s": "timeout" must be a number of seconds'],
    ['a zero timeout', 's', { command: 'x', timeout: 0 }, 'server "s": "timeout" must be more than 0'],
    ['a negative toolTimeout', 's', { command: 'x', toolTimeout: -1 }, 'server "s": "toolTimeout" must be more than 0'],
    ['an unknown approval', 's', { command: 'x', approval: 'never' }, 'server "s": "approval" must be "ask" or "auto"'],
    ['a numeric type', 's', { type: 3, command: 'x' }, 'server "s": "type" must be a string'],
  ])('refuses %s with an exact message', (_what, name, raw, message) => {
    expect(validateServerEntry(name, raw, source)).toEqual({ ok: false, message });
  });
});
