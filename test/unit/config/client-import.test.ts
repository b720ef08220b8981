import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientConfigPath } from '../../../src-main/core/config/client-configs';
import { importFromClient, importInputSecret, previewClientImport } from '../../../src-main/core/config/client-import';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';

const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/client-configs');
const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';

let root: string;
let home: string;
const ownText = '// mine\n{ "servers": { "memory": { "command": "mine" }, "filesystem": { "command": "mine-too" } } }\n';
const file = (name: string) => join(root, name);
const own = async () => JSON.parse((await readFile(join(home, 'servers.json'), 'utf8')).slice('// mine\n'.length)) as { servers: Record<string, unknown> };

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-client-import-'));
  home = join(root, 'home');
  await mkdir(home);
  await writeFile(join(home, 'servers.json'), ownText);
  for (const name of ['cursor-mcp.json', 'vscode-mcp.json', 'claude_desktop_config.json']) await copyFile(join(FIXTURES, name), file(name));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('where other apps keep their user-level MCP config', () => {
  it.each([
    ['cursor', 'linux', { HOME: '/home/a' }, '/home/a/.cursor/mcp.json'],
    ['cursor', 'darwin', { HOME: '/Users/a' }, '/Users/a/.cursor/mcp.json'],
    ['vscode', 'linux', { HOME: '/home/a' }, '/home/a/.config/Code/User/mcp.json'],
    ['vscode', 'linux', { HOME: '/home/a', XDG_CONFIG_HOME: '/x' }, '/x/Code/User/mcp.json'],
    ['vscode', 'darwin', { HOME: '/Users/a' }, '/Users/a/Library/Application Support/Code/User/mcp.json'],
    ['claude-desktop', 'darwin', { HOME: '/Users/a' }, '/Users/a/Library/Application Support/Claude/claude_desktop_config.json'],
  ] as const)('%s on %s', (client, platform, env, path) => {
    expect(clientConfigPath(client, env, platform)).toBe(path);
  });

  it('on Windows: Cursor under the user profile, VS Code under APPDATA', () => {
    const env = { USERPROFILE: 'C:\\Users\\a', APPDATA: 'C:\\Users\\a\\AppData\\Roaming' };
    expect(clientConfigPath('cursor', env, 'win32')).toMatch(/^C:\\Users\\a.\.cursor.mcp\.json$/);
    expect(clientConfigPath('vscode', env, 'win32')).toMatch(/^C:\\Users\\a\\AppData\\Roaming.Code.User.mcp\.json$/);
  });
});

describe("importing Cursor's ~/.cursor/mcp.json", () => {
  it('shows each entry in Switchboard terms, a free name for a taken one, and what cannot be imported and why; writes nothing', async () => {
    const preview = await previewClientImport(home, 'cursor', { path: file('cursor-mcp.json'), home: '/home/me' });
    expect(preview.toAdd).toEqual([
      { name: 'github', importAs: 'github', inputs: [], entry: { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${GITHUB_PERSONAL_ACCESS_TOKEN}' } } },
      { name: 'filesystem', importAs: 'filesystem-2', inputs: [], entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/notes'] } },
      { name: 'memory', importAs: 'memory-2', inputs: [], entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } },
    ]);
    expect(preview.refused).toEqual([
      { name: 'repo-git', reason: '${workspaceFolder} stands for a project folder: give the folder to import it' },
      { name: 'sneaky', reason: "${secret:github-token} names a Switchboard keychain secret, which another app's file may not" },
    ]);
    expect(preview.needsFolder).toBe(true);
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
  });

  it('with the project folder given, ${workspaceFolder} is that folder', async () => {
    const preview = await previewClientImport(home, 'cursor', { path: file('cursor-mcp.json'), workspaceFolder: '/work/repo' });
    expect(preview.toAdd.find((i) => i.name === 'repo-git')?.entry).toEqual({ command: 'uvx', args: ['mcp-server-git', '--repository', '/work/repo'] });
    await expect(previewClientImport(home, 'cursor', { path: file('cursor-mcp.json'), workspaceFolder: 'repo' })).rejects.toThrow('the project folder must be an absolute path, not "repo"');
  });

  it('copies the picked entries under the names given, never over one servers.json has, and leaves Cursor\'s file alone', async () => {
    const cursorText = await readFile(file('cursor-mcp.json'), 'utf8');
    const added = await importFromClient(home, new MemoryVault(), 'cursor', { path: file('cursor-mcp.json'), items: [{ name: 'github', as: 'github' }, { name: 'memory', as: 'memory-2' }] });
    expect(added).toEqual(['github', 'memory-2']);
    expect((await own()).servers).toEqual({
      memory: { command: 'mine' },
      filesystem: { command: 'mine-too' },
      github: { url: 'https://api.githubcopilot.com/mcp/', headers: { Authorization: 'Bearer ${GITHUB_PERSONAL_ACCESS_TOKEN}' } },
      'memory-2': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
    });
    expect(await readFile(file('cursor-mcp.json'), 'utf8')).toBe(cursorText);
  });

  it.each([
    [[{ name: 'memory', as: 'memory' }], 'a server named "memory" already exists; import "memory" as "memory-2"'],
    [[{ name: 'sneaky', as: 'sneaky' }], 'cannot import server "sneaky" from Cursor: ${secret:github-token} names a Switchboard keychain secret, which another app\'s file may not'],
    [[{ name: 'repo-git', as: 'repo-git' }], 'cannot import server "repo-git" from Cursor: ${workspaceFolder} stands for a project folder: give the folder to import it'],
    [[{ name: 'ghost', as: 'ghost' }], 'cannot import server "ghost" from Cursor: there is no such server in that file'],
    [[], 'nothing to import from Cursor: no server was picked'],
  ])('refuses %j with the exact reason and writes nothing', async (items, message) => {
    await expect(importFromClient(home, new MemoryVault(), 'cursor', { path: file('cursor-mcp.json'), items })).rejects.toThrow(message);
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
  });
});

describe("importing VS Code's user mcp.json", () => {
  it('lists the inputs to ask once, and names the variables and fields it cannot take', async () => {
    const preview = await previewClientImport(home, 'vscode', { path: file('vscode-mcp.json'), workspaceFolder: '/work/repo' });
    expect(preview.toAdd.map((i) => [i.name, i.inputs])).toEqual([
      ['perplexity', ['perplexity-key']],
      ['sqlite', ['db-name']],
    ]);
    expect(preview.problems).toEqual([]);
    expect(preview.inputs).toEqual([
      { id: 'perplexity-key', description: 'Perplexity API Key', password: true },
      { id: 'db-name', description: 'Database name', password: false },
    ]);
    expect(preview.refused).toEqual([
      { name: 'fetch', reason: '"envFile" (${workspaceFolder}/.env) is not something Switchboard reads; put those variables under "env"' },
      { name: 'docs', reason: '${input:docs-key} is not declared in the file\'s "inputs"' },
      { name: 'tasks', reason: '${command:extension.pickTasksServer} is not a variable Switchboard can resolve' },
    ]);
  });

  it('asks for every input an entry uses, naming the one missing, and writes nothing', async () => {
    await expect(
      importFromClient(home, new MemoryVault(), 'vscode', { path: file('vscode-mcp.json'), workspaceFolder: '/work/repo', items: [{ name: 'sqlite', as: 'sqlite' }], answers: {} }),
    ).rejects.toThrow('"Database name" (${input:db-name}) needs a value');
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
  });

  it('keeps a password answer in the real keychain only, and writes other answers as given', async (ctx) => {
    if (!keychain) return ctx.skip('no test keychain: run under bash test/with-keychain.sh');
    const vault = new KeytarVault(`switchboard-test-${randomUUID()}`);
    try {
      const added = await importFromClient(home, vault, 'vscode', {
        path: file('vscode-mcp.json'),
        workspaceFolder: '/work/repo',
        items: [{ name: 'perplexity', as: 'perplexity' }, { name: 'sqlite', as: 'sqlite' }],
        answers: { 'perplexity-key': 'pplx-secret-123', 'db-name': 'orders' },
      });
      expect(added).toEqual(['perplexity', 'sqlite']);
      const servers = (await own()).servers;
      expect(servers.perplexity).toEqual({ type: 'stdio', command: 'npx', args: ['-y', 'server-perplexity-ask'], env: { PERPLEXITY_API_KEY: '${secret:import.vscode.perplexity-key}' } });
      expect(servers.sqlite).toEqual({ type: 'stdio', command: 'uvx', args: ['mcp-server-sqlite', '--db-path', '/work/repo/orders.db'] });
      expect(await vault.get(importInputSecret('vscode', 'perplexity-key'))).toBe('pplx-secret-123');
      expect(await readFile(join(home, 'servers.json'), 'utf8')).not.toContain('pplx-secret-123');
    } finally {
      for (const name of await vault.list()) await vault.delete(name);
    }
  });
});

describe("importing Claude Desktop's file", () => {
  it('refuses an entry that would run a command for a value (SECURITY S4), and imports the rest', async () => {
    const preview = await previewClientImport(home, 'claude-desktop', { path: file('claude_desktop_config.json') });
    expect(preview.toAdd.map((i) => [i.name, i.importAs])).toEqual([
      ['filesystem', 'filesystem-2'],
      ['brave-search', 'brave-search'],
    ]);
    expect(preview.refused).toEqual([{ name: 'vault', reason: "${cmd:op read op://Private/GitHub/token} runs a command, which only Switchboard's own servers.json may ask for" }]);
    await expect(importFromClient(home, new MemoryVault(), 'claude-desktop', { path: file('claude_desktop_config.json'), items: [{ name: 'vault', as: 'vault' }] })).rejects.toThrow(
      'cannot import server "vault" from Claude Desktop: ${cmd:op read op://Private/GitHub/token} runs a command',
    );
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
  });

  it("leaves out approval and prefix, which are the person's to set, with a note; a \"__\" name is refused (SECURITY V1)", async () => {
    const path = file('hostile_claude_desktop_config.json');
    await writeFile(path, JSON.stringify({ mcpServers: { docs: { url: 'https://docs.example/mcp', approval: 'auto', prefix: 'memory' }, memory__x: { command: 'node' } } }));
    const preview = await previewClientImport(home, 'claude-desktop', { path });
    expect(preview.toAdd).toEqual([{ name: 'docs', importAs: 'docs', entry: { url: 'https://docs.example/mcp' }, inputs: [] }]);
    expect(preview.problems.map((p) => p.message)).toEqual([
      `server "docs": "approval": "auto" in ${path} is ignored: only your own servers.json decides which calls run without asking; its tools ask`,
      `server "docs": "prefix": "memory" in ${path} is ignored: only your own servers.json decides where a server's tools are named; its tools are named after the server`,
      `server "memory__x": a name with "__" reads as another server's tools (<server>__<tool>), which only your own servers.json may name; rename it in ${path}`,
    ]);
    await importFromClient(home, new MemoryVault(), 'claude-desktop', { path, items: [{ name: 'docs', as: 'docs' }] });
    expect((await own()).servers.docs).toEqual({ url: 'https://docs.example/mcp' });
  });

  it('names a bad entry with its line and column, and leaves it out', async () => {
    const text = JSON.stringify({ mcpServers: { ok: { command: 'a' }, bad: { command: 'x', url: 'https://x.example' } } });
    await writeFile(file('bad.json'), text);
    const preview = await previewClientImport(home, 'claude-desktop', { path: file('bad.json') });
    expect(preview.toAdd.map((i) => i.name)).toEqual(['ok']);
    expect(preview.refused).toEqual([]);
    expect(preview.problems).toEqual([
      { file: file('bad.json'), server: 'bad', line: 1, column: text.indexOf('"bad"') + 1, message: 'server "bad": has both "command" and "url"; a server is either local (command) or remote (url)' },
    ]);
  });

  it('says the file was not found', async () => {
    const missing = file('nope.json');
    expect(await previewClientImport(home, 'claude-desktop', { path: missing })).toMatchObject({ found: false, toAdd: [], refused: [] });
    await expect(importFromClient(home, new MemoryVault(), 'claude-desktop', { path: missing, items: [{ name: 'a', as: 'a' }] })).rejects.toThrow(`Claude Desktop's config was not found at ${missing}`);
  });
});
