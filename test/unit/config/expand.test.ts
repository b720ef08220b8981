import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandServerConfig, hasReference } from '../../../src-main/core/config/expand';
import type { ConfigSource, ServerConfig } from '../../../src-main/core/config/server-config';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { CommandSecrets } from '../../../src-main/core/secrets/command-secrets';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';

const source: ConfigSource = { path: '/home/u/.config/Switchboard/servers.json', origin: 'switchboard', userWritten: true };
const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const NO_KEYCHAIN = 'no test keychain: run under bash test/with-keychain.sh';

function entry(name: string, raw: unknown): ServerConfig {
  const result = validateServerEntry(name, raw, source);
  if (!result.ok) throw new Error(result.message);
  return result.server;
}

// A throwaway keychain service, so nothing here touches "Switchboard" entries.
const service = `switchboard-test-${randomUUID()}`;
let vault: KeytarVault;

beforeAll(async () => {
  if (!keychain) return;
  vault = new KeytarVault(service);
  await vault.set('GITHUB_TOKEN', 'ghp_secret');
  await vault.set('API_KEY', 'k-123');
});

afterAll(async () => {
  if (!keychain) return;
  for (const name of await vault.list()) await vault.delete(name);
});

describe('expandServerConfig', () => {
  it('expands ${VAR} and ${VAR:-default} in command, args, env values and cwd of a stdio server', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('files', {
      command: '${TOOLS}/bin/server',
      args: ['--root', '${HOME}/work', '--level=${LEVEL:-info}'],
      env: { TOKEN_PATH: '${HOME}/.token', MODE: '${MODE:-fast}' },
      cwd: '${HOME}',
    });
    const result = await expandServerConfig(config, { TOOLS: '/opt/tools', HOME: '/home/u', MODE: 'slow' }, vault);
    expect(result).toEqual({
      ok: true,
      warnings: [],
      config: {
        ...config,
        command: '/opt/tools/bin/server',
        args: ['--root', '/home/u/work', '--level=info'],
        env: { TOKEN_PATH: '/home/u/.token', MODE: 'slow' },
        cwd: '/home/u',
      },
    });
  });

  it('uses the default when the variable is set but empty, as a shell does', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const result = await expandServerConfig(entry('s', { command: 'x', args: ['${EMPTY:-fallback}', '[${EMPTY}]'] }), { EMPTY: '' }, vault);
    expect(result.ok && result.config.kind === 'stdio' && result.config.args).toEqual(['fallback', '[]']);
  });

  it('expands the url and header values of a remote server, not the header names', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('remote', {
      url: 'https://${HOST:-api.example.com}/mcp',
      headers: { Authorization: 'Bearer ${secret:API_KEY}', 'X-${NAME}': 'v' },
    });
    const result = await expandServerConfig(config, { NAME: 'ignored' }, vault);
    expect(result).toEqual({
      ok: true,
      warnings: [],
      config: { ...config, url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer k-123', 'X-${NAME}': 'v' } },
    });
  });

  it('refuses a url that is not http(s) once expanded, without echoing the expanded value', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('remote', { url: '${BASE}/mcp' });
    expect(await expandServerConfig(config, { BASE: 'file:///etc' }, vault)).toEqual({
      ok: false,
      message: 'server "remote": "url" is not a valid http or https URL after expanding ${BASE}/mcp',
    });
  });

  it('leaves an unset variable literal and warns once, naming the variable and the server', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('gh', { command: 'gh-mcp', args: ['${MISSING}', '${MISSING}/x'], env: { A: '${ALSO_MISSING}' } });
    const result = await expandServerConfig(config, {}, vault);
    expect(result).toEqual({
      ok: true,
      config: { ...config, args: ['${MISSING}', '${MISSING}/x'], env: { A: '${ALSO_MISSING}' } },
      warnings: [
        'server "gh": environment variable MISSING is not set; "${MISSING}" was left as is',
        'server "gh": environment variable ALSO_MISSING is not set; "${ALSO_MISSING}" was left as is',
      ],
    });
  });

  it('resolves ${secret:NAME} from the real keychain at connect time', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('gh', { command: 'gh-mcp', env: { GITHUB_TOKEN: '${secret:GITHUB_TOKEN}' } });
    const result = await expandServerConfig(config, {}, vault);
    expect(result).toEqual({ ok: true, warnings: [], config: { ...config, env: { GITHUB_TOKEN: 'ghp_secret' } } });
    // The stored config still holds the reference: the secret lives only in the expanded copy.
    expect(config.kind === 'stdio' && config.env).toEqual({ GITHUB_TOKEN: '${secret:GITHUB_TOKEN}' });
  });

  it('fails with "secret NAME is not set" when the keychain has no such secret', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('gh', { command: 'gh-mcp', args: ['${secret:GITHUB_TOKEN}'], env: { T: '${secret:NOPE}' } });
    expect(await expandServerConfig(config, {}, vault)).toEqual({ ok: false, message: 'secret NOPE is not set' });
  });

  it('does not expand a variable whose value itself looks like a reference (no double expansion)', async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const config = entry('s', { command: 'x', args: ['${EVIL}'] });
    const result = await expandServerConfig(config, { EVIL: '${secret:GITHUB_TOKEN}' }, vault);
    expect(result.ok && result.config.kind === 'stdio' && result.config.args).toEqual(['${secret:GITHUB_TOKEN}']);
  });

  it('reports a keychain that cannot be reached as a failure, never falling back to plain text', async () => {
    // A separate process pointed at a D-Bus that does not exist: the real "no keychain" case.
    const script = `
      import { expandServerConfig } from './src-main/core/config/expand.ts';
      import { KeytarVault } from './src-main/core/secrets/keytar-vault.ts';
      const config = { name: 'gh', kind: 'stdio', command: 'gh-mcp', args: [], env: { T: '\${secret:GITHUB_TOKEN}' },
        enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask',
        source: { path: '/x/servers.json', origin: 'switchboard', userWritten: true } };
      process.stdout.write(JSON.stringify(await expandServerConfig(config, { GITHUB_TOKEN: 'plain-env-value' }, new KeytarVault('${service}'))));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: process.cwd(),
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    });
    const result = JSON.parse(stdout) as { ok: boolean; message: string };
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/^secret GITHUB_TOKEN could not be read from the OS keychain: the OS keychain is not available \(.+\)/);
    expect(stdout).not.toContain('plain-env-value');
  });
});

describe('hasReference', () => {
  it.each([
    ['${X}', true],
    ['a ${X:-b} c', true],
    ['${secret:TOKEN}', true],
    ['Bearer ${cmd:op read op://Private/GitHub/token}', true],
    ['plain', false],
    ['$X', false],
    ['${1BAD}', false],
  ])('%s -> %s', (value, expected) => {
    expect(hasReference(value)).toBe(expected);
  });
});

describe('${cmd:…} in a server entry (SECURITY S4)', () => {
  const PM = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/commands/password-manager.mjs');
  const commands = new CommandSecrets({ loginPath: async () => process.env.PATH ?? '' });
  const cmd = (item: string) => `\${cmd:${process.execPath} ${PM} read ${item}}`;

  it('puts what the command prints into env values, args and headers of a server in servers.json', async () => {
    const stdio = entry('gh', { command: 'gh-mcp', args: ['--token=' + cmd('op://vault/arg')], env: { GITHUB_TOKEN: cmd('op://vault/github') } });
    const remote = entry('docs', { url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${cmd('op://vault/docs')}` } });
    const a = await expandServerConfig(stdio, {}, new MemoryVault(), commands);
    const b = await expandServerConfig(remote, {}, new MemoryVault(), commands);
    expect(a.ok && a.config.kind === 'stdio' && [a.config.args, a.config.env]).toEqual([['--token=value-of op://vault/arg'], { GITHUB_TOKEN: 'value-of op://vault/github' }]);
    expect(b.ok && b.config.kind === 'remote' && b.config.headers).toEqual({ Authorization: 'Bearer value-of op://vault/docs' });
  });

  it.each([
    ['a project file', { path: '/work/repo/.mcp.json', origin: 'project', userWritten: false }],
    ["another client's file", { path: '/home/u/.cursor/mcp.json', origin: 'cursor', userWritten: false }],
    ['a bundle', { path: '/home/u/.config/Switchboard/bundles.json', origin: 'bundle', userWritten: false }],
  ] as const)('refuses it in %s, naming the file, and runs nothing', async (_what, from) => {
    const marker = join(await mkdtemp(join(tmpdir(), 'sb-cmd-')), 'ran');
    const result = validateServerEntry('evil', { command: 'x', env: { T: `\${cmd:${process.execPath} -e require('fs').writeFileSync('${marker}','1')}` } }, from);
    if (!result.ok) throw new Error(result.message);
    const expanded = await expandServerConfig(result.server, {}, new MemoryVault(), commands);
    expect(expanded).toEqual({
      ok: false,
      message: `server "evil": \${cmd:${process.execPath} -e require('fs').writeFileSync('${marker}','1')} runs a command, which only Switchboard's own servers.json may ask for, not ${from.path}`,
    });
    expect(existsSync(marker)).toBe(false);
  });

  it('fails the server with the reason when the command fails', async () => {
    const result = await expandServerConfig(entry('gh', { command: 'x', env: { T: cmd('op://vault/locked') } }), {}, new MemoryVault(), commands);
    expect(result).toEqual({ ok: false, message: `server "gh": ${cmd('op://vault/locked')} failed (exit code 1); run it in a terminal to see why` });
  });
});

describe("VS Code's and Cursor's variables in a project's file", () => {
  it.each([
    ['/work/repo/.vscode/mcp.json', 'vscode'],
    ['/work/repo/.cursor/mcp.json', 'cursor'],
  ] as const)('in %s: ${workspaceFolder} is the project folder, ${env:NAME} the environment', async (path, origin) => {
    const result = validateServerEntry('git', { command: 'uvx', args: ['mcp-server-git', '--repository', '${workspaceFolder}', '--name=${workspaceFolderBasename}', '${userHome}/x'], env: { TOKEN: '${env:GIT_TOKEN}' } }, { path, origin, userWritten: false });
    if (!result.ok) throw new Error(result.message);
    const expanded = await expandServerConfig(result.server, { GIT_TOKEN: 't-1', HOME: '/home/me' }, new MemoryVault());
    expect(expanded.ok && expanded.config.kind === 'stdio' && [expanded.config.args, expanded.config.env]).toEqual([
      ['mcp-server-git', '--repository', '/work/repo', '--name=repo', '/home/me/x'],
      { TOKEN: 't-1' },
    ]);
  });

  it('leaves ${workspaceFolder} alone, with a warning, in a file that has no project folder', async () => {
    const expanded = await expandServerConfig(entry('x', { command: 'x', args: ['${workspaceFolder}'] }), {}, new MemoryVault());
    expect(expanded).toMatchObject({ ok: true, warnings: ['server "x": environment variable workspaceFolder is not set; "${workspaceFolder}" was left as is'] });
  });

  it('warns about an unset ${env:NAME} by its name, as for ${NAME}', async () => {
    const expanded = await expandServerConfig(entry('x', { command: 'x', args: ['${env:NOPE_NOT_SET}'] }), {}, new MemoryVault());
    expect(expanded).toMatchObject({ ok: true, warnings: ['server "x": environment variable NOPE_NOT_SET is not set; "${env:NOPE_NOT_SET}" was left as is'] });
  });
});

describe('${secret:…} follows where the entry came from (SECURITY V1)', () => {
  const project = (path: string, origin: ConfigSource['origin']): ConfigSource => ({ path, origin, userWritten: false });

  // Without the test keychain these are skipped (run under bash test/with-keychain.sh).
  it.skipIf(!keychain).each([
    ['a project .mcp.json', project('/work/repo/.mcp.json', 'project')],
    ["a project's .vscode/mcp.json", project('/work/repo/.vscode/mcp.json', 'vscode')],
    ["a project's .cursor/mcp.json", project('/work/repo/.cursor/mcp.json', 'cursor')],
    ["Claude Desktop's file", project('/home/u/.config/Claude/claude_desktop_config.json', 'claude-desktop')],
  ])('refuses a keychain secret in %s, naming the server and the field, and gives out nothing', async (_what, from) => {
    const checked = validateServerEntry('docs', { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${secret:GITHUB_TOKEN}' } }, from);
    if (!checked.ok) throw new Error(checked.message);
    const result = await expandServerConfig(checked.server, {}, vault);
    expect(result).toEqual({
      ok: false,
      message: `server "docs": "headers.Authorization" asks for \${secret:GITHUB_TOKEN}, refused: ${from.path} is not your own servers.json, and only that file may read your keychain; use an environment variable (the approval shows it), or add the server in Switchboard`,
    });
    expect(JSON.stringify(result)).not.toContain('ghp_secret');
  });

  it.skipIf(!keychain).each(['oauth/tokens/0123abcd', 'oauth/client/0123abcd', 'anthropic-api-key', 'openai-api-key'])(
    "never reads Switchboard's own entry %s, even for the person's servers.json",
    async (name) => {
      await vault.set(name, `internal-value-of-${name}`);
      const config = entry('gh', { command: 'gh-mcp', args: ['--x'], env: { LEAK: `\${secret:${name}}` } });
      const result = await expandServerConfig(config, {}, vault);
      expect(result).toEqual({
        ok: false,
        message: `server "gh": "env.LEAK" asks for \${secret:${name}}, refused: "${name}" is one of Switchboard's own keychain entries (sign-in tokens, provider keys), which no server entry may read`,
      });
      expect(JSON.stringify(result)).not.toContain('internal-value-of');
    },
  );

  it("lets a bundle's entry read the secrets its install stored for it, and no other", async (ctx) => {
    if (!keychain) return ctx.skip(NO_KEYCHAIN);
    const bundles: ConfigSource = { path: '/home/u/.config/Switchboard/bundles.json', origin: 'bundle', userWritten: false };
    await vault.set('bundle.notes.api_key', 'notes-key');
    await vault.set('bundle.other.api_key', 'other-key');
    const own = validateServerEntry('notes', { command: 'node', args: ['${secret:bundle.notes.api_key}'] }, bundles);
    const other = validateServerEntry('notes', { command: 'node', args: ['x', '${secret:bundle.other.api_key}'] }, bundles);
    if (!own.ok || !other.ok) throw new Error('invalid fixture');
    const ownResult = await expandServerConfig(own.server, {}, vault);
    expect(ownResult.ok && ownResult.config.kind === 'stdio' && ownResult.config.args).toEqual(['notes-key']);
    expect(await expandServerConfig(other.server, {}, vault)).toEqual({
      ok: false,
      message: `server "notes": "args[1]" asks for \${secret:bundle.other.api_key}, refused: a bundle's server reads only the secrets its install stored for it (bundle.notes.…)`,
    });
  });
});
