import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { versionOf } from '../../../src-main/core/config/atomic-file';
import {
  addServer,
  addServers,
  removeServer,
  setServerEnabled,
  STALE_MESSAGE,
  updateServer,
  updateServers,
} from '../../../src-main/core/config/config-writer';
import { loadConfig } from '../../../src-main/core/config/load-config';

let home: string;
let file: string;

const COMMENTED = `// my servers, hand-written
{
  "disabled": false,
  "theme": { "keep": "me" }, // unknown key
  "servers": {
    /* files */ "fs": { "command": "npx", "args": ["-y", "fs"], "note": "kept" },
    "gh": { "url": "https://gh.example/mcp", "disabled": true }
  }
}
`;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-writer-'));
  file = join(home, 'servers.json');
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

const servers = async () => (await loadConfig({ home, projectDirs: [] })).servers;
const json = async () => parse(await readFile(file, 'utf8')) as Record<string, unknown> & { servers: Record<string, unknown> };

/** Runs a refused edit and checks its exact message and that the file is byte-for-byte what it was. */
async function expectRefused(editing: () => Promise<unknown>, message: string): Promise<void> {
  const before = await readFile(file).catch(() => undefined);
  await expect(editing()).rejects.toMatchObject({ message });
  expect(await readFile(file).catch(() => undefined)).toEqual(before);
  expect(await readdir(home)).toEqual(before === undefined ? [] : ['servers.json']); // no temp file left behind
}

describe('config writer', () => {
  it('creates servers.json (mode 0600) with the first server', async () => {
    await addServer(home, 'fs', { command: 'npx', args: ['-y', 'fs'] });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await json()).toEqual({ servers: { fs: { command: 'npx', args: ['-y', 'fs'] } } });
    expect(await readdir(home)).toEqual(['servers.json']);
  });

  it('adds a server keeping comments, unknown keys and the other entries', async () => {
    await writeFile(file, COMMENTED);
    await addServer(home, 'mem', { command: 'mem' });
    const text = await readFile(file, 'utf8');
    expect(text).toContain('// my servers, hand-written');
    expect(text).toContain('// unknown key');
    expect(text).toContain('/* files */');
    expect(await json()).toEqual({
      disabled: false,
      theme: { keep: 'me' },
      servers: {
        fs: { command: 'npx', args: ['-y', 'fs'], note: 'kept' },
        gh: { url: 'https://gh.example/mcp', disabled: true },
        mem: { command: 'mem' },
      },
    });
  });

  it('writes to "mcpServers" in a file kept in Claude Desktop\'s shape', async () => {
    await writeFile(file, '{ "mcpServers": { "a": { "command": "a" } } }');
    await addServer(home, 'b', { command: 'b' });
    expect(await json()).toEqual({ mcpServers: { a: { command: 'a' }, b: { command: 'b' } } });
  });

  it('makes an existing file 0600 when it rewrites it', async () => {
    await writeFile(file, COMMENTED);
    await chmod(file, 0o644);
    await removeServer(home, 'gh');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('replaces an entry on update and removes one on remove', async () => {
    await writeFile(file, COMMENTED);
    await updateServer(home, 'fs', { command: 'node', args: ['fs.js'] });
    await removeServer(home, 'gh');
    expect((await json()).servers).toEqual({ fs: { command: 'node', args: ['fs.js'] } });
    expect(await readFile(file, 'utf8')).toContain('// unknown key');
  });

  it('enables and disables, replacing a Claude-style "disabled" key', async () => {
    await writeFile(file, COMMENTED);
    await setServerEnabled(home, 'gh', true);
    await setServerEnabled(home, 'fs', false);
    expect((await json()).servers).toEqual({
      fs: { command: 'npx', args: ['-y', 'fs'], note: 'kept', enabled: false },
      gh: { url: 'https://gh.example/mcp', enabled: true },
    });
    expect((await servers()).map((s) => [s.name, s.enabled])).toEqual([['fs', false], ['gh', true]]);
  });

  it('keeps every one of several concurrent edits', async () => {
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((n) => addServer(home, n, { command: n })));
    expect(Object.keys((await json()).servers).sort()).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  describe('refuses, leaving the file byte-for-byte as it was', () => {
    beforeEach(async () => {
      await writeFile(file, COMMENTED);
    });

    it.each([
      ['both command and url', { command: 'x', url: 'https://x.example' }, 'server "new": has both "command" and "url"; a server is either local (command) or remote (url)'],
      ['neither', {}, 'server "new": needs "command" (a local server) or "url" (a remote server)'],
      ['a wrong field type', { command: 'x', args: 'y' }, 'server "new": "args" must be an array of strings'],
      ['an unknown type', { type: 'ws', url: 'wss://x.example' }, 'server "new": unknown type "ws" (expected stdio, http or sse)'],
    ])('an added entry with %s', async (_what, entry, message) => {
      await expectRefused(() => addServer(home, 'new', entry), message);
    });

    it('an added entry with a bad name', async () => {
      await expectRefused(() => addServer(home, 'my server', { command: 'x' }), 'server "my server": server name may use only letters, digits, "_", "." and "-"');
      await expectRefused(() => addServer(home, '', { command: 'x' }), 'server "": server name is empty');
    });

    it('an added name that already exists', async () => {
      await expectRefused(() => addServer(home, 'fs', { command: 'x' }), 'server "fs" already exists in servers.json');
    });

    it('a batch where one entry is bad or a name repeats (all or nothing)', async () => {
      await expectRefused(() => addServers(home, [{ name: 'ok', entry: { command: 'x' } }, { name: 'bad', entry: { command: 1 } }]),
        'server "bad": "command" must be a string',
      );
      await expectRefused(() => addServers(home, [{ name: 'ok', entry: { command: 'x' } }, { name: 'ok', entry: { command: 'y' } }]),
        'server "ok" is given twice',
      );
      await expectRefused(() => addServers(home, [{ name: 'ok', entry: { command: 'x' } }, { name: 'gh', entry: { command: 'y' } }]), 'server "gh" already exists in servers.json');
      await expectRefused(() => addServers(home, []), 'no servers to add');
    });

    it('an update that is invalid or names a missing server', async () => {
      await expectRefused(() => updateServer(home, 'fs', { command: 'x', timeout: 0 }), 'server "fs": "timeout" must be more than 0');
      await expectRefused(() => updateServer(home, 'nope', { command: 'x' }), 'no server "nope" in servers.json');
    });

    it('a remove or enable of a missing server', async () => {
      await expectRefused(() => removeServer(home, 'nope'), 'no server "nope" in servers.json');
      await expectRefused(() => setServerEnabled(home, 'nope', true), 'no server "nope" in servers.json');
    });

    it('an edit made after the file changed on disk since it was read', async () => {
      const read = (await loadConfig({ home, projectDirs: [] })).versions![file]!;
      const outside = COMMENTED.replace('"kept"', '"edited outside"');
      await writeFile(file, outside);
      await expectRefused(() => addServer(home, 'mem', { command: 'mem' }, { expectedVersion: read }), STALE_MESSAGE);
      await expectRefused(() => removeServer(home, 'fs', { expectedVersion: read }), STALE_MESSAGE);
      expect(await readFile(file, 'utf8')).toBe(outside);
      // Reading again gives the new version, and then the edit goes through.
      await addServer(home, 'mem', { command: 'mem' }, { expectedVersion: versionOf(outside) });
      expect(await readFile(file, 'utf8')).toContain('"edited outside"');
    });

    it('an edit when the file was deleted since it was read, and a create when it appeared', async () => {
      const read = versionOf(COMMENTED);
      await rm(file);
      await expectRefused(() => addServer(home, 'mem', { command: 'mem' }, { expectedVersion: read }), STALE_MESSAGE);
      await writeFile(file, COMMENTED);
      await expectRefused(() => addServer(home, 'mem', { command: 'mem' }, { expectedVersion: versionOf(undefined) }), STALE_MESSAGE);
    });
  });

  it('refuses to rewrite a file it cannot parse, with its location', async () => {
    const broken = '{\n  "servers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}';
    await writeFile(file, broken);
    await expectRefused(() => addServer(home, 'mem', { command: 'mem' }),
      `${file}:4:5: invalid JSON (comma expected); fix the file by hand first, Switchboard does not rewrite a file it cannot read`,
    );
    await writeFile(file, '{ "servers": [] }');
    await expectRefused(() => removeServer(home, 'a'), `${file}: "servers" must be an object of named servers; fix the file by hand first`);
    await writeFile(file, '[1]');
    await expectRefused(() => removeServer(home, 'a'), `${file}: the top level must be an object; fix the file by hand first`);
  });

  describe('updateServers', () => {
    it('replaces several entries in one write, keeping comments and unknown keys', async () => {
      await writeFile(file, COMMENTED);
      await updateServers(home, [
        { name: 'fs', entry: { command: 'npx', args: ['-y', 'fs', '/tmp'] } },
        { name: 'gh', entry: { url: 'https://gh.example/v2' } },
      ]);
      const text = await readFile(file, 'utf8');
      expect(text).toContain('// my servers, hand-written');
      expect((await json()).servers).toEqual({ fs: { command: 'npx', args: ['-y', 'fs', '/tmp'] }, gh: { url: 'https://gh.example/v2' } });
      expect((await json()).theme).toEqual({ keep: 'me' });
    });

    it('writes nothing when any one entry is missing or invalid', async () => {
      await writeFile(file, COMMENTED);
      await expectRefused(
        () => updateServers(home, [{ name: 'fs', entry: { command: 'x' } }, { name: 'nope', entry: { command: 'y' } }]),
        'no server "nope" in servers.json',
      );
      await expectRefused(
        () => updateServers(home, [{ name: 'fs', entry: { command: 'x' } }, { name: 'gh', entry: { command: 'y', url: 'https://z' } }]),
        'server "gh": has both "command" and "url"; a server is either local (command) or remote (url)',
      );
    });
  });
});
