/**
 * The diagnostics bundle leaks no secret: canaries planted in the real OS keychain (a ${secret:…}
 * a server gets and prints, an unused one, OAuth tokens and a client secret), in env values (plain,
 * and from this process's environment), in an argument, in headers and a URL query are all absent
 * from every file of the zip — while the zip still says what is wrong and where.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthCredentialStore } from '../../../src-main/core/oauth/credential-store';
import { KeytarVault, keychainServiceFor } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { fixture, is, quietLogger, waitForState } from '../mcp/helpers';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const skipReason = hasKeychain ? '' : ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]';
const canary = (where: string) => `CANARY-${where}-${randomBytes(8).toString('hex')}`;

const CANARIES = {
  keychainUsed: canary('keychain-used'),
  keychainUnused: canary('keychain-unused'),
  envPlain: canary('env-plain'),
  envFromProcess: canary('env-process'),
  arg: canary('arg'),
  header: canary('header'),
  urlQuery: canary('url-query'),
  accessToken: canary('oauth-access'),
  refreshToken: canary('oauth-refresh'),
  clientSecret: canary('oauth-client-secret'),
};

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

/** Every file of the zip as text, by name. */
const unzip = (zip: Uint8Array) => Object.fromEntries(Object.entries(unzipSync(zip)).map(([name, bytes]) => [name, strFromU8(bytes)]));

function expectNoCanary(files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    for (const [where, value] of Object.entries(CANARIES)) expect(text.includes(value), `${where} canary in ${name}`).toBe(false);
    expect(text, name).not.toContain('CANARY-');
  }
}

describe.skipIf(!hasKeychain)(`the diagnostics bundle with canaries in the real OS keychain${skipReason}`, { timeout: 120_000 }, () => {
  let home: string;
  let vault: KeytarVault;
  let core: SwitchboardCore;
  let servers: Record<string, unknown>;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'switchboard-bundle-'));
    // The CLI below opens the keychain of this profile; the core uses the same one.
    vault = new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: home }));
    await vault.set('canary-key', CANARIES.keychainUsed);
    await vault.set('unused-key', CANARIES.keychainUnused);
    const store = new OAuthCredentialStore(vault);
    const issuer = 'https://as.example';
    await store.saveTokens({ issuer, clientId: 'c1', resource: 'https://api.example/mcp', tokens: { access_token: CANARIES.accessToken, refresh_token: CANARIES.refreshToken, token_type: 'Bearer' } });
    await store.savePreRegistered('api', { clientId: 'c1', clientSecret: CANARIES.clientSecret });
    process.env.SWITCHBOARD_BUNDLE_CANARY = CANARIES.envFromProcess;
    const port = await closedPort();
    servers = {
      box: {
        command: process.execPath,
        args: [fixture('toolbox.mjs'), '--print-env', 'FROM_KEYCHAIN,PLAIN_TOKEN,FROM_PROCESS', '--api-key', CANARIES.arg],
        env: { FROM_KEYCHAIN: '${secret:canary-key}', PLAIN_TOKEN: CANARIES.envPlain, FROM_PROCESS: '${SWITCHBOARD_BUNDLE_CANARY}' },
      },
      api: { url: `http://127.0.0.1:${port}/mcp?key=${CANARIES.urlQuery}`, headers: { Authorization: `Bearer ${CANARIES.header}`, 'X-Team': '${secret:canary-key}' } },
    };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
    core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
    await core.start();
    await waitForState(core.mcp, 'box', is('connected'));
    await waitForState(core.mcp, 'api', (s) => s.kind === 'error' || s.kind === 'backing_off');
    // The server really printed its secrets: the scrub, not luck, keeps them out.
    expect(core.mcp.logs('box')).toContain(`FROM_KEYCHAIN=${CANARIES.keychainUsed}`);
    // A careless log line carrying a real secret (S3 forbids it; the bundle must not trust that nobody slipped).
    core.log.warn('a careless log line', { token: CANARIES.keychainUsed });
  });

  afterAll(async () => {
    await core?.stop();
    for (const name of (await vault?.list()) ?? []) await vault.delete(name);
    delete process.env.SWITCHBOARD_BUNDLE_CANARY;
    await rm(home, { recursive: true, force: true });
  });

  it('holds no canary in any file, yet says versions, OS, states, fixes, logs and the config shape', async () => {
    const files = unzip(await core.diagnosticsBundle());
    expect(Object.keys(files).sort()).toEqual(['about.json', 'logs/servers/api.log', 'logs/servers/box.log', 'logs/switchboard.log', 'servers.json']);
    expectNoCanary(files);

    const about = JSON.parse(files['about.json']!);
    expect(about).toMatchObject({ switchboard: '0.1.0', mcpSdk: expect.stringMatching(/^1\.\d+\.\d+$/), node: process.versions.node, os: { platform: process.platform, arch: process.arch }, keychain: { available: true, entries: 4 } });
    const { servers: listed } = JSON.parse(files['servers.json']!);
    const box = listed.find((s: { name: string }) => s.name === 'box');
    const api = listed.find((s: { name: string }) => s.name === 'api');
    expect(box).toMatchObject({ state: 'connected', diagnosis: null, config: { command: process.execPath, env: { FROM_KEYCHAIN: '${secret:canary-key}', PLAIN_TOKEN: '[redacted]', FROM_PROCESS: '${SWITCHBOARD_BUNDLE_CANARY}' } } });
    expect(box.config.args.slice(-2)).toEqual(['--api-key', '[redacted]']);
    expect(api).toMatchObject({ state: expect.stringMatching(/^(error|backing_off)$/), reason: expect.stringContaining('connection refused'), diagnosis: { class: 'transient' } });
    expect(api.config.headers).toEqual({ Authorization: '[redacted]', 'X-Team': '${secret:canary-key}' });
    expect(api.config.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp\?key=redacted$/);
    expect(files['logs/servers/box.log']).toContain('FROM_KEYCHAIN=[redacted]\nPLAIN_TOKEN=[redacted]\nFROM_PROCESS=[redacted]\n');
    expect(files['logs/switchboard.log']).toContain('warn a careless log line {"token":"[redacted]"}');
  });

  it('switchboard doctor --bundle writes the same kind of zip from the command line', async () => {
    await core.stop();
    const out = join(home, 'bundle.zip');
    const cli = join(process.cwd(), 'src-main/cli.ts');
    const result = await new Promise<{ code: number; stderr: string }>((done) =>
      execFile(process.execPath, ['--import', 'tsx', cli, 'doctor', '--bundle', out, '--json'], { env: { ...process.env, SWITCHBOARD_HOME: home }, timeout: 60_000 }, (error, _stdout, stderr) =>
        done({ code: error ? Number(error.code) : 0, stderr }),
      ),
    );
    // api cannot connect, so the report exits 1 — and the bundle is written all the same.
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`diagnostics written to ${out} (secrets replaced; look inside before you share it)`);
    const files = unzip(await readFile(out));
    expectNoCanary(files);
    expect(files['logs/servers/box.log']).toContain('FROM_KEYCHAIN=[redacted]');
    expect(JSON.parse(files['servers.json']!).servers.map((s: { name: string }) => s.name).sort()).toEqual(['api', 'box']);
  });
});
