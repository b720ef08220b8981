// Remote servers with and without an OS keychain, through the CLI as a user runs it. The
// "without" runs everywhere: the CLI's process gets a D-Bus address that leads nowhere, so it has
// no Secret Service even inside test/with-keychain.sh. The "with" case needs that private keyring.
import type { ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProtectedMcpServer, type ProtectedMcpServerFixture } from '../../fixtures/oauth/protected-mcp-server';
import { startHttpFixture, type HttpFixture } from '../../fixtures/servers/http-fixture';
import { startEverything, stopChild } from '../mcp/helpers';
import { usesKeychain } from './helpers';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(root, 'src-main/cli.ts');
const API_KEY = 'the-right-key';

let home: string;
let everything: { url: string; child: ChildProcess };
let oauth: ProtectedMcpServerFixture;
let apiKey: HttpFixture;

interface Row {
  name: string;
  state: string;
  reason: string;
  fix?: string;
}

async function status(env: NodeJS.ProcessEnv): Promise<Record<string, Row>> {
  const stdout = await new Promise<string>((done, fail) => {
    execFile(process.execPath, ['--import', 'tsx', cli, 'status', '--json'], { cwd: root, env: { ...env, SWITCHBOARD_HOME: home }, timeout: 60_000 }, (error, out) =>
      // status exits 1 when a server is down, which these servers are meant to be
      error && typeof error.code !== 'number' ? fail(error) : done(out),
    );
  });
  const report = JSON.parse(stdout) as { servers: Row[] };
  return Object.fromEntries(report.servers.map((row) => [row.name, row]));
}

let withoutKeychain: Promise<Record<string, Row>> | undefined;
/** One CLI run without a keychain, shared by the tests that read it. */
const statusWithoutKeychain = () => {
  const env: NodeJS.ProcessEnv = { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/switchboard-test-bus', APIKEY_TEST: 'a-wrong-key' };
  delete env.DISPLAY; // no X11 either, so D-Bus cannot be autolaunched
  return (withoutKeychain ??= status(env));
};

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchboard-nokeychain-remote-'));
  everything = await startEverything('streamableHttp');
  // The authorization server is never contacted here: without tokens the server answers 401 first.
  oauth = await startProtectedMcpServer({ name: 'oauth', issuer: 'http://127.0.0.1:9/', jwksUri: 'http://127.0.0.1:9/jwks' });
  apiKey = await startHttpFixture({ bearer: API_KEY });
  const servers = {
    open: { url: everything.url },
    oauth: { url: oauth.url },
    'needs-key': { url: apiKey.url },
    'wrong-key': { url: apiKey.url, headers: { Authorization: 'Bearer ${APIKEY_TEST}' } },
  };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
}, 60_000);

afterAll(async () => {
  await stopChild(everything.child);
  await oauth.close();
  await apiKey.close();
  await rm(home, { recursive: true, force: true });
});

const NO_OAUTH_REASON = (url: string) => `HTTP 401: ${new URL(url).host} asks for credentials (WWW-Authenticate: Bearer) and offers no OAuth sign-in`;

describe('remote servers on a machine without an OS keychain', () => {
  it('connects a server that needs no credentials, and only sign-in fails, with the keychain message and a fix', async () => {
    const rows = await statusWithoutKeychain();
    expect(rows.open).toMatchObject({ state: 'connected', reason: 'connected over streamable HTTP' });
    expect(rows.oauth!.state).toBe('error');
    expect(rows.oauth!.reason).toMatch(
      /^the OS keychain is not available \(.+\); on Linux, Switchboard needs a Secret Service such as gnome-keyring or KWallet running and unlocked$/,
    );
    expect(rows.oauth!.fix).toBe(
      'start a Secret Service (gnome-keyring or KWallet) and unlock it, then reconnect: sign-in tokens are kept only in the OS keychain, never in a file',
    );
    // Nothing was written in place of the keychain.
    expect((await readdir(home, { recursive: true })).filter((f) => !f.startsWith('cache'))).toEqual(['servers.json']);
  }, 90_000);

  it('says which header or variable to set when a 401 comes from a server without OAuth, not "sign in"', async () => {
    const rows = await statusWithoutKeychain();
    expect(rows['needs-key']).toEqual({
      ...rows['needs-key'],
      state: 'error',
      reason: NO_OAUTH_REASON(apiKey.url),
      fix: `it wants an API key: add the header it expects under "headers" for "needs-key" in ${join(home, 'servers.json')}, e.g. "Authorization": "Bearer \${secret:needs-key-api-key}", and store the key on the Secrets page`,
    });
    expect(rows['wrong-key']).toMatchObject({
      state: 'error',
      reason: NO_OAUTH_REASON(apiKey.url),
      fix: 'it refused the "Authorization" header: check the environment variable APIKEY_TEST it is built from',
    });
  }, 90_000);
});

describe.skipIf(!usesKeychain)('the same servers with an OS keychain', () => {
  it('connects the open server, asks to sign in to the OAuth one, and names the header for the API-key one', async () => {
    const rows = await status({ ...process.env, APIKEY_TEST: 'a-wrong-key' });
    expect(rows.open).toMatchObject({ state: 'connected' });
    expect(rows.oauth).toMatchObject({
      state: 'needs_auth',
      reason: 'HTTP 401: sign-in required',
      fix: 'sign in: Servers → Sign in in Switchboard, or run: switchboard login oauth',
    });
    expect(rows['needs-key']).toMatchObject({ state: 'error', reason: NO_OAUTH_REASON(apiKey.url) });
    expect(rows['wrong-key']).toMatchObject({ state: 'error', fix: 'it refused the "Authorization" header: check the environment variable APIKEY_TEST it is built from' });
  }, 90_000);
});
