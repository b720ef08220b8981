import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { root, runCli } from './cli-runner';

// Each test runs the CLI several times, each a fresh Node process: on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 300_000 });

const everything = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
let home: string;
let userHome: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchboard-cli-servers-'));
  userHome = await mkdtemp(join(tmpdir(), 'switchboard-cli-user-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(userHome, { recursive: true, force: true });
});

const servers = async () => (JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { servers: Record<string, Record<string, unknown>> }).servers;
const cli = (...args: string[]) => runCli(home, args, { env: { HOME: userHome } });
type Row = { name: string; state: string; reason: string; fix?: string };
const statusOf = async (name: string) => (JSON.parse((await cli('status', '--json')).stdout) as { servers: Row[] }).servers.find((s) => s.name === name);

describe('switchboard add', () => {
  it('adds a whole command line, its own flags included, and the server runs', async () => {
    const added = await cli('add', 'every', '--env', 'LOG=1', 'node', everything, 'stdio', '--not-ours', 'x');
    expect(added).toMatchObject({ code: 0, stderr: '' });
    expect(added.stdout).toContain('added "every" to ');
    expect((await servers()).every).toEqual({ command: 'node', args: [everything, 'stdio', '--not-ours', 'x'], env: { LOG: '1' } });
  });

  it('adds a URL server with its headers', async () => {
    expect((await cli('add', 'remote', '--header', 'Authorization=Bearer ${secret:remote-key}', 'https://mcp.example.com/mcp')).code).toBe(0);
    expect((await servers()).remote).toEqual({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${secret:remote-key}' } });
  });

  it('refuses a taken name, a bad URL and a bad name, naming what is wrong, and leaves servers.json as it was', async () => {
    await cli('add', 'one', 'node', 'a.js');
    const before = await readFile(join(home, 'servers.json'), 'utf8');
    const taken = await cli('add', 'one', 'node', 'b.js');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/^switchboard: .*"one".*\n/);
    const scheme = await cli('add', 'two', 'file:///etc/passwd');
    expect(scheme.code).toBe(1);
    expect(scheme.stderr).toContain('"url" must be http or https, not file');
    const badName = await cli('add', 'x'.repeat(300), 'node');
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain(`switchboard: "${'x'.repeat(300)}" cannot be a server name: server name is over 100 characters\n`);
    const spaced = await cli('add', 'my files', 'node');
    expect(spaced.stderr).toContain('switchboard: "my files" cannot be a server name: server name may use only letters, digits, "_", "." and "-"\n');
    expect(spaced.stderr).not.toContain('invalid payload');
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(before);
  });

  it('refuses a whole command line given as one quoted word, which would run as one program\'s name (issue 23 item 2)', async () => {
    const whole = await cli('add', 'memory', 'npx -y @modelcontextprotocol/server-memory');
    expect(whole.code).toBe(2);
    expect(whole.stderr).toContain(
      'switchboard: "npx -y @modelcontextprotocol/server-memory" is a whole command line in one word: give the command and its arguments unquoted, e.g. switchboard add memory npx -y @modelcontextprotocol/server-memory\nusage:',
    );
    await expect(readFile(join(home, 'servers.json'), 'utf8')).rejects.toThrow();
    // A program whose path has spaces is one word and is kept as it is.
    const spacedDir = join(userHome, 'My Tools');
    await mkdir(spacedDir);
    await writeFile(join(spacedDir, 'server'), '#!/bin/sh\n');
    expect((await cli('add', 'spaced', join(spacedDir, 'server'))).code).toBe(0);
    expect((await servers()).spaced).toEqual({ command: join(spacedDir, 'server') });
  });

  it('a usage error exits 2 with the usage', async () => {
    const none = await cli('add', 'lonely');
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('switchboard: add needs a command or a URL for "lonely"\nusage:');
    const mixed = await cli('add', 'r', '--env', 'A=1', 'https://mcp.example.com/mcp');
    expect(mixed).toMatchObject({ code: 2 });
    expect(mixed.stderr).toContain('--env is for a command; a URL server takes --header');
  });
});

describe('switchboard import', () => {
  it('copies what the window would from Cursor, refusing what another app may not reference', async () => {
    await mkdir(join(userHome, '.cursor'));
    await writeFile(join(userHome, '.cursor', 'mcp.json'), await readFile(join(root, 'test/fixtures/client-configs/cursor-mcp.json')));
    const imported = await cli('import', 'cursor', '--only', 'memory', '--only', 'filesystem', '--yes');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain('imported ');
    expect(imported.stdout).toContain('skipped sneaky: ${secret:github-token} names a Switchboard keychain secret, which another app\'s file may not');
    const file = await servers();
    expect(file.memory).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] });
    expect(file.filesystem).toMatchObject({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', `${userHome}/notes`] });
    expect(Object.keys(file).sort()).toEqual(['filesystem', 'memory']);
  });

  it('without a terminal and without --yes, asks and writes nothing', async () => {
    const file = join(userHome, 'claude.json');
    await writeFile(file, JSON.stringify({ mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } }));
    const asked = await cli('import', 'claude-desktop', '--file', file);
    expect(asked.code).toBe(1);
    // One sentence a person reads as it stands (the trial saw "not approved: import 1 server into servers.json needs a yes").
    expect(asked.stderr).toContain('switchboard: nothing changed: there is no terminal to answer "import 1 server into servers.json?"; run it in a terminal, or add --yes to answer yes\n');
    await expect(readFile(join(home, 'servers.json'), 'utf8')).rejects.toThrow();
    expect((await cli('import', 'claude-desktop', '--file', file, '--yes')).code).toBe(0);
    expect(Object.keys(await servers())).toEqual(['memory']);
  });
});

describe('switchboard approve', () => {
  beforeEach(async () => {
    // A bundle as the installer leaves it in bundles.json: blocked until approved (SECURITY P1).
    await writeFile(join(home, 'bundles.json'), JSON.stringify({ servers: { hello: { command: 'node', args: [everything, 'stdio'], env: { API_KEY: 'literal-value' } } }, bundles: {} }));
  });

  it('a bundle is the person\'s install: its reason and fix say so and name a way that exists', async () => {
    const row = await statusOf('hello');
    expect(row).toMatchObject({ state: 'trust_required', reason: 'installed from a bundle: approve what it runs ("node") before it starts' });
    expect(row?.fix).toBe("approve what it runs: Approve and run on its row in Switchboard's Servers page, or run: switchboard approve hello");
  });

  it('shows what it runs (literal values masked), needs a yes off a terminal, then lets it run', async () => {
    const refused = await cli('approve', 'hello');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`hello (installed bundle, ${join(home, 'bundles.json')}) runs:\n  API_KEY=`);
    expect(refused.stdout).not.toContain('literal-value');
    expect(refused.stdout).toContain(`node ${everything} stdio`);
    expect(refused.stderr).toContain('switchboard: nothing changed: there is no terminal to answer "approve hello to run this?"; run it in a terminal, or add --yes to answer yes\n');
    expect((await statusOf('hello'))?.state).toBe('trust_required');

    const approved = await cli('approve', 'hello', '--yes');
    expect(approved).toMatchObject({ code: 0 });
    expect(approved.stdout).toContain('approved "hello"');
    expect((await statusOf('hello'))?.state).toBe('connected');
  });

  it('refuses a server of the person\'s own file and an unknown one', async () => {
    await cli('add', 'mine', 'node', everything, 'stdio');
    const own = await cli('approve', 'mine', '--yes');
    expect(own.code).toBe(1);
    expect(own.stderr).toContain(`server "mine" does not need approval: you wrote it in ${join(home, 'servers.json')}`);
    const unknown = await cli('approve', 'ghost', '--yes');
    expect(unknown).toMatchObject({ code: 1, stderr: 'switchboard: no server named "ghost"\n' });
  });
});
