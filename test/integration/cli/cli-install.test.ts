import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KeytarVault, keychainServiceFor } from '../../../src-main/core/secrets/keytar-vault';
import { packFixture } from '../../support/bundles';

/** `switchboard install` and `uninstall` as a person runs them, with a bundle packed by the mcpb CLI and the real keychain. */

const cli = resolve('src-main/cli.ts');
const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
if (!keychain) console.warn('cli install test skipped: no test keychain (run under bash test/with-keychain.sh)');
let home: string;
let hello: string;

function run(args: string[], stdin = '', env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, SWITCHBOARD_HOME: home, ...env }, timeout: 60_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
    child.stdin!.end(stdin);
  });
}

beforeAll(async () => {
  hello = await packFixture();
}, 60_000);
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchboard-cli-install-'));
});
afterEach(() => rm(home, { recursive: true, force: true }));

describe.skipIf(!keychain)('switchboard install', () => {
  it('shows what the bundle runs, reads the sensitive setting from standard input into the keychain, then uninstalls it all', async () => {
    const installed = await run(['install', hello, '--name', 'hi', '--set', 'limit=7', '--set', 'folders=/a', '--set', 'folders=/b'], 'sk-from-stdin\n');
    expect(installed.stderr).toBe('');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('Hello Bundle 1.0.0 by Switchboard tests (manifest 0.3, node)');
    expect(installed.stdout).toContain('  runs: "node" "${__dirname}/server/index.js" "--greeting" "${user_config.greeting}" "${user_config.folders}"');
    expect(installed.stdout).toContain('  setting api_key: API key (required) (sensitive, read from standard input)');
    expect(installed.stdout).toContain(`installed "hi"; it runs once you approve it: switchboard approve hi (or Approve and run on Switchboard's Servers page)`);
    const file = JSON.parse(await readFile(join(home, 'bundles.json'), 'utf8'));
    expect(file.servers.hi.args.slice(1)).toEqual(['--greeting', 'hello', '/a', '/b']);
    expect(file.servers.hi.env).toEqual({ HELLO_API_KEY: '${secret:bundle.hi.api_key}', HELLO_LIMIT: '7' });
    // Sandboxed, said before it is written (SECURITY X1, V2): the folders given are its write grants.
    expect(installed.stdout).toContain('  runs sandboxed: reads its own folder, writes the folders its directory settings name, reads the files its file settings name, no network');
    expect({ sandboxEnabled: file.servers.hi.sandboxEnabled, sandbox: file.servers.hi.sandbox }).toEqual({ sandboxEnabled: true, sandbox: { filesystem: { allowWrite: ['/a', '/b'] } } });
    const vault = new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: home }));
    expect(await vault.get('bundle.hi.api_key')).toBe('sk-from-stdin');

    const removed = await run(['uninstall', 'hi']);
    expect(removed).toMatchObject({ code: 0, stdout: 'uninstalled hi: its files and its keychain entries were removed\n' });
    expect(await vault.get('bundle.hi.api_key')).toBeUndefined();
    expect(await readdir(join(home, 'bundles'))).toEqual([]);
  }, 60_000);

  it('refuses to install when the policy turns installs off, set by your organization, writing nothing (SECURITY X2)', async () => {
    const policy = join(home, 'policy.json');
    await writeFile(policy, JSON.stringify({ installs: 'off' }));
    const refused = await run(['install', hello, '--name', 'hi'], 'sk\n', { SWITCHBOARD_POLICY: policy });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('installing servers is turned off (set by your organization)');
    expect(await readFile(join(home, 'bundles.json'), 'utf8').catch(() => 'none')).toBe('none');
  }, 60_000);

  it('refuses a sensitive setting on the command line, and a missing required one, writing nothing', async () => {
    const onArgs = await run(['install', hello, '--set', 'api_key=sk-in-history']);
    expect(onArgs).toMatchObject({ code: 1, stderr: 'switchboard: setting api_key is sensitive: give it on standard input, not on the command line\n' });
    const missing = await run(['install', hello], '\n');
    expect(missing).toMatchObject({ code: 1, stderr: 'switchboard: "API key" (api_key) is required\n' });
    expect(await readdir(home)).toEqual([]);
  }, 60_000);

  it('names a usage error with exit code 2', async () => {
    expect(await run(['install'])).toMatchObject({ code: 2 });
    expect((await run(['install', 'a.mcpb', '--set', 'nokey'])).stderr).toContain('switchboard: --set takes KEY=VALUE, got "nokey"');
  });
});
