import { execFile, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_SCOPE, startAuthorizationServer, type AuthorizationServerFixture } from '../../fixtures/oauth/authorization-server';
import { HeadlessBrowser } from '../../fixtures/oauth/headless-browser';
import { startProtectedMcpServer, type ProtectedMcpServerFixture } from '../../fixtures/oauth/protected-mcp-server';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(root, 'src-main/cli.ts');
const missing =
  (process.env.SWITCHBOARD_TEST_KEYCHAIN === '1' ? undefined : 'SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh') ??
  (process.platform === 'linux' ? undefined : "the browser is stood in for through xdg-open's $BROWSER, which is Linux only");
if (missing) console.warn(`switchboard login/logout tests skipped: ${missing}`);

/**
 * `switchboard login` against a real authorization server (oidc-provider) and a protected MCP server.
 * xdg-open hands the sign-in address to a recorder ($BROWSER); the test plays the browser.
 */
// Each test starts CLI processes (tsx compiles the CLI each time): a 25 s test alone took over 60 s on a 2-core machine at load 35; a hang still fails.
describe.skipIf(missing !== undefined)('switchboard login / logout', { timeout: 180_000 }, () => {
  let as: AuthorizationServerFixture;
  let good: ProtectedMcpServerFixture;
  let home: string;
  let openedFile: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    as = await startAuthorizationServer();
    good = await startProtectedMcpServer({ name: 'good', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
    home = await mkdtemp(join(tmpdir(), 'switchboard-cli-login-'));
    openedFile = join(home, 'opened.txt');
    const recorder = join(home, 'browser.sh');
    await writeFile(recorder, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${openedFile}'\n`);
    await chmod(recorder, 0o700);
    const servers = { servers: { good: { url: good.url, transport: 'streamable-http' }, local: { command: 'node', enabled: false } } };
    await writeFile(join(home, 'servers.json'), JSON.stringify(servers));
    env = { ...process.env, SWITCHBOARD_HOME: home, BROWSER: recorder };
    delete env.DISPLAY;
    delete env.XDG_CURRENT_DESKTOP;
  });
  afterAll(async () => {
    await good?.close();
    await as?.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const run = (...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
      execFile(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, env, timeout: 60_000 }, (error, stdout, stderr) =>
        done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
      );
    });
  const opened = async () => (await readFile(openedFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const stateOf = async (name: string) => {
    const { stdout } = await run('status', '--json');
    return (JSON.parse(stdout) as { servers: { name: string; state: string }[] }).servers.find((s) => s.name === name)?.state;
  };

  it('login opens the browser, waits for the loopback, and the server then connects with the stored token', async () => {
    expect(await stateOf('good')).toBe('needs_auth');
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'login', 'good'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    await expect.poll(opened, { timeout: 30_000 }).toHaveLength(1);
    const address = (await opened())[0]!;
    expect(address.startsWith(`${as.issuer}/`)).toBe(true);
    expect(stdout).toContain(address); // printed too, for a machine without a browser

    const browser = new HeadlessBrowser();
    await browser.open(address);
    expect((await browser.lastLanding()).body).toContain('Signed in to good — you can close this tab.');
    expect(await exited).toBe(0);
    expect(stdout).toContain('signed in to good');
    expect(await stateOf('good')).toBe('connected');
  });

  it('logout removes the credentials: the server needs sign-in again', async () => {
    const { code, stdout } = await run('logout', 'good');
    expect(code).toBe(0);
    expect(stdout).toContain('signed out of good; its credentials were removed from the keychain');
    expect(await stateOf('good')).toBe('needs_auth');
  });

  it('refuses a local server and a missing name with exact messages and exit codes', async () => {
    expect(await run('login', 'local')).toMatchObject({ code: 1, stderr: 'switchboard: local is a stdio server; only remote servers sign in\n' });
    const usage = await run('login');
    expect(usage.code).toBe(2);
    expect(usage.stderr.startsWith('switchboard: login needs exactly one server name\nusage:')).toBe(true);
  });
});
