import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'jsonc-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MASKED_VALUE } from '../../../src-preload/contract/values';
import { configHandlers, type ConfigHandlers } from '../../../src-main/core/config/config-handlers';
import { STALE_MESSAGE } from '../../../src-main/core/config/config-writer';
import { loadConfig, type LoadedConfig } from '../../../src-main/core/config/load-config';
import { TrustStore } from '../../../src-main/core/config/trust-store';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';

let root: string;
let home: string;
let proj: string;
let ownFile: string;
let projFile: string;
let claudeFile: string;
let loaded: LoadedConfig;
let reconnected: string[];
let handlers: ConfigHandlers;
let trust: TrustStore;

const OWN = `{
  // kept
  "servers": {
    "gh": { "command": "gh-mcp", "env": { "GITHUB_TOKEN": "ghp_literal", "REF": "\${secret:GH}", "HOST": "github.com" } },
    "api": { "url": "https://api.example/mcp", "headers": { "Authorization": "Bearer sk-live", "X-Key": "\${secret:K}" } }
  }
}
`;

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-handlers-'));
  home = join(root, 'home');
  proj = join(root, 'proj');
  ownFile = join(home, 'servers.json');
  projFile = join(proj, '.mcp.json');
  claudeFile = join(root, 'claude_desktop_config.json');
  await put(ownFile, OWN);
  await put(projFile, JSON.stringify({ mcpServers: { local: { command: 'node', args: ['srv.js'] }, remote: { url: 'https://r.example/mcp' } } }));
  await mkdir(proj, { recursive: true });
  reconnected = [];
  loaded = await loadConfig({ home, projectDirs: [proj] });
  trust = await TrustStore.open(home);
  handlers = configHandlers({
    home,
    trust: async () => trust,
    current: () => loaded,
    reload: async () => {
      loaded = await loadConfig({ home });
    },
    reconnect: async (name) => {
      reconnected.push(name);
    },
    vault: new MemoryVault(),
    clientConfigPaths: { 'claude-desktop': claudeFile },
  });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A refused call: exact message, and every file byte-for-byte as it was. */
async function expectRefused(call: () => Promise<unknown>, message: string): Promise<void> {
  const files = [ownFile, projFile, claudeFile, join(home, 'trust.json'), join(home, 'projects.json')];
  const before = await Promise.all(files.map((f) => readFile(f).catch(() => undefined)));
  await expect(call()).rejects.toMatchObject({ message });
  expect(await Promise.all(files.map((f) => readFile(f).catch(() => undefined)))).toEqual(before);
}
const ownJson = async () => parse(await readFile(ownFile, 'utf8')) as { servers: Record<string, Record<string, unknown>> };

describe('config handlers', () => {
  it('shows an entry with env and header values masked, except ${...} references', async () => {
    expect(await handlers.getServerEntry({ name: 'gh' })).toEqual({
      name: 'gh',
      source: ownFile,
      origin: 'switchboard',
      editable: true,
      entry: { command: 'gh-mcp', env: { GITHUB_TOKEN: MASKED_VALUE, REF: '${secret:GH}', HOST: MASKED_VALUE } },
    });
    const api = await handlers.getServerEntry({ name: 'api' });
    expect(api.entry).toEqual({ url: 'https://api.example/mcp', headers: { Authorization: MASKED_VALUE, 'X-Key': '${secret:K}' } });
    expect(JSON.stringify(api)).not.toContain('sk-live');
    const local = await handlers.getServerEntry({ name: 'local' });
    expect(local).toMatchObject({ source: projFile, origin: 'project', editable: false, entry: { command: 'node', args: ['srv.js'] } });
  });

  it('keeps stored values where an update sends the mask back, and takes new ones', async () => {
    await handlers.updateServer({ name: 'gh', entry: { command: 'gh-mcp', args: ['--v2'], env: { GITHUB_TOKEN: MASKED_VALUE, HOST: 'ghe.example' } } });
    expect((await ownJson()).servers.gh).toEqual({ command: 'gh-mcp', args: ['--v2'], env: { GITHUB_TOKEN: 'ghp_literal', HOST: 'ghe.example' } });
    expect(await readFile(ownFile, 'utf8')).toContain('// kept');
    expect(loaded.servers.find((s) => s.name === 'gh')).toMatchObject({ args: ['--v2'] });
  });

  it('refuses a mask for a value servers.json does not have', async () => {
    await expectRefused(
      () => handlers.updateServer({ name: 'gh', entry: { command: 'gh-mcp', env: { NEW_KEY: MASKED_VALUE } } }),
      'server "gh": "env.NEW_KEY" is masked but servers.json has no value for it; type the value',
    );
  });

  it('adds, disables and removes a server, reloading after each write', async () => {
    await handlers.addServer({ name: 'mem', entry: { command: 'mem' } });
    expect(loaded.servers.map((s) => s.name)).toContain('mem');
    await handlers.setServerEnabled({ name: 'mem', enabled: false });
    expect(loaded.servers.find((s) => s.name === 'mem')?.enabled).toBe(false);
    await handlers.removeServer({ name: 'mem' });
    expect(loaded.servers.map((s) => s.name)).not.toContain('mem');
  });

  it('refuses bad input with the exact message and no file touched', async () => {
    await expectRefused(() => handlers.addServer({ name: 'x', entry: { command: 'a', url: 'https://a.example' } }), 'server "x": has both "command" and "url"; a server is either local (command) or remote (url)');
    await expectRefused(() => handlers.addServer({ name: 'gh', entry: { command: 'a' } }), 'server "gh" already exists in servers.json');
    await expectRefused(() => handlers.removeServer({ name: 'nope' }), 'no server "nope" in servers.json');
  });

  it('refuses to change a server defined in a project file, and leaves that file alone', async () => {
    const message = `server "local" is defined in ${projFile}, which Switchboard does not write; change it in that file`;
    await expectRefused(() => handlers.updateServer({ name: 'local', entry: { command: 'x' } }), message);
    await expectRefused(() => handlers.removeServer({ name: 'local' }), message);
    await expectRefused(() => handlers.setServerEnabled({ name: 'local', enabled: false }), message);
  });

  it('refuses an edit when servers.json changed on disk since the config in use was read', async () => {
    await writeFile(ownFile, OWN.replace('// kept', '// edited elsewhere'));
    await expectRefused(() => handlers.addServer({ name: 'mem', entry: { command: 'mem' } }), STALE_MESSAGE);
    await expectRefused(() => handlers.setServerEnabled({ name: 'gh', enabled: false }), STALE_MESSAGE);
  });

  it('adds the servers of a pasted Claude Desktop snippet, or none with the exact reason', async () => {
    expect(await handlers.pasteServers({ text: '{"mcpServers": {"a": {"command": "a"}, "b": {"url": "https://b.example"}}}' })).toEqual({ added: ['a', 'b'] });
    expect(Object.keys((await ownJson()).servers)).toEqual(['gh', 'api', 'a', 'b']);
    await expectRefused(() => handlers.pasteServers({ text: '{"c": {"command": "c"}, "d": {"command": 1}}' }), 'server "d": "command" must be a string');
    await expectRefused(() => handlers.pasteServers({ text: '{"mcpServers": {"gh": {"command": "x"}}}' }), 'server "gh" already exists in servers.json');
  });

  it('previews a Claude Desktop import with literal values masked and a free name for a taken one, then imports on request', async () => {
    await put(claudeFile, JSON.stringify({ mcpServers: { fs: { command: 'npx', env: { KEY: 'literal-secret', HOME_DIR: '${HOME}' } }, gh: { command: 'other' } } }));
    const preview = await handlers.previewImport({ client: 'claude-desktop' });
    expect(preview).toEqual({
      client: 'claude-desktop',
      path: claudeFile,
      found: true,
      toAdd: [
        { name: 'fs', importAs: 'fs', inputs: [], entry: { command: 'npx', env: { KEY: MASKED_VALUE, HOME_DIR: '${HOME}' } } },
        { name: 'gh', importAs: 'gh-2', inputs: [], entry: { command: 'other' } },
      ],
      refused: [],
      inputs: [],
      needsFolder: false,
      problems: [],
    });
    expect(await handlers.importServers({ client: 'claude-desktop', items: [{ name: 'fs', as: 'fs' }, { name: 'gh', as: 'gh-2' }] })).toEqual({ added: ['fs', 'gh-2'] });
    expect((await ownJson()).servers.fs).toEqual({ command: 'npx', env: { KEY: 'literal-secret', HOME_DIR: '${HOME}' } });
    expect((await ownJson()).servers['gh-2']).toEqual({ command: 'other' });
    await expectRefused(() => handlers.importServers({ client: 'claude-desktop', items: [{ name: 'gh', as: 'gh' }] }), 'a server named "gh" already exists; import "gh" as "gh-3"');
  });

  it('adds and removes project folders, whose servers then load', async () => {
    loaded = await loadConfig({ home });
    expect(loaded.servers.map((s) => s.name)).toEqual(['gh', 'api']);
    expect(await handlers.addProject({ path: proj })).toEqual({ projects: [proj] });
    expect(loaded.servers.map((s) => s.name)).toEqual(['gh', 'api', 'local', 'remote']);
    expect(await handlers.listProjects({})).toEqual({ projects: [proj] });
    expect(await handlers.removeProject({ path: proj })).toEqual({ projects: [] });
    expect(loaded.servers.map((s) => s.name)).toEqual(['gh', 'api']);
    await expectRefused(() => handlers.addProject({ path: 'relative/dir' }), 'a project folder must be an absolute path: relative/dir');
  });

  it('approves and revokes trust for a project stdio server, restarting it each time', async () => {
    const local = loaded.servers.find((s) => s.name === 'local')!;
    expect(trust.isTrusted(local)).toBe(false);
    await handlers.approveTrust({ name: 'local' });
    expect(trust.isTrusted(local)).toBe(true);
    expect(await handlers.listTrust({})).toEqual([{ name: 'local', sourcePath: projFile, approvedAt: expect.any(Number), bundle: false }]);
    await handlers.revokeTrust({ name: 'local' });
    expect(trust.isTrusted(local)).toBe(false);
    expect(reconnected).toEqual(['local', 'local']);
  });

  it('refuses trust for servers that need none, and a revoke with nothing to revoke', async () => {
    await expectRefused(() => handlers.approveTrust({ name: 'gh' }), `server "gh" does not need approval: you wrote it in ${ownFile}`);
    await expectRefused(() => handlers.approveTrust({ name: 'api' }), `server "api" does not need approval: you wrote it in ${ownFile}`);
    await expectRefused(() => handlers.approveTrust({ name: 'ghost' }), 'no server named "ghost"');
    await expectRefused(() => handlers.revokeTrust({ name: 'local' }), `server "local" from ${projFile} has no approval to revoke`);
    expect(reconnected).toEqual([]);
  });
});
