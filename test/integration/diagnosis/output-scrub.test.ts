/**
 * SECURITY S7 through the real paths: a `${secret:…}` and a `${cmd:…}` expanded into a remote URL
 * that fails, and a server whose stderr echoes a literal token from its env. The raw state holds the secret (the
 * leak is real); the log sink and the kept log lines, every event, the dispatch answers and the CLI's
 * status and doctor output do not.
 */
import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/core/dispatch';
import type { Logger } from '../../../src-main/core/ports';
import { KeytarVault, keychainServiceFor } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { waitForState } from '../mcp/helpers';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const skipReason = hasKeychain ? '' : ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]';

const URL_SECRET = `urlsecret${randomBytes(8).toString('hex')}`;
const ENV_TOKEN = `envtoken${randomBytes(8).toString('hex')}`;
const CMD_SECRET = `cmdsecret${randomBytes(8).toString('hex')}`;
const SECRETS = { 'URL secret': URL_SECRET, 'env token': ENV_TOKEN, 'command secret': CMD_SECRET };

/** A server that fails every request with a 500: the failure reason then names the URL it was asked at. */
async function failingServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.writeHead(500).end('broken'));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, port: (server.address() as { port: number }).port };
}

function runCli(home: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const cli = join(process.cwd(), 'src-main/cli.ts');
  return new Promise((done) =>
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, SWITCHBOARD_HOME: home }, timeout: 90_000 }, (error, stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
}

describe.skipIf(!hasKeychain)(`secrets at the output edges (S7)${skipReason}`, { timeout: 180_000 }, () => {
  let home: string;
  let vault: KeytarVault;
  let core: SwitchboardCore;
  let failing: Server;
  const sunk: string[] = [];
  const events: string[] = [];

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'switchboard-scrub-'));
    vault = new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: home }));
    await vault.set('path-token', URL_SECRET);
    const { server, port } = await failingServer();
    failing = server;
    const echoToken = "process.stderr.write('starting with token ' + process.env.SERVICE_TOKEN + '\\n'); process.exit(1)";
    const servers = {
      remote: { url: `http://127.0.0.1:${port}/mcp/\${secret:path-token}`, timeout: 5 },
      fromCommand: { url: `http://127.0.0.1:${port}/mcp/\${cmd:printf ${CMD_SECRET}}`, timeout: 5 },
      echo: { command: process.execPath, args: ['-e', echoToken], env: { SERVICE_TOKEN: ENV_TOKEN } },
    };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
    const sink = (level: string) => (message: string, fields?: Record<string, unknown>) => sunk.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    const logger: Logger = { info: sink('info'), warn: sink('warn'), error: sink('error') };
    core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
    core.events.subscribe((name, payload) => events.push(`${name} ${JSON.stringify(payload)}`));
    await core.start();
    await waitForState(core.mcp, 'remote', (s) => s.reason.startsWith('HTTP 500'));
    await waitForState(core.mcp, 'fromCommand', (s) => s.reason.startsWith('HTTP 500'));
    await waitForState(core.mcp, 'echo', (s) => s.kind === 'error');
  });

  afterAll(async () => {
    await core?.stop();
    failing?.closeAllConnections();
    await new Promise((done) => failing?.close(done));
    for (const name of (await vault?.list()) ?? []) await vault.delete(name);
    await rm(home, { recursive: true, force: true });
  });

  it('the raw state really holds the secrets: the failure reasons and the stderr tail', () => {
    expect(core.mcp.status('remote')!.state.reason).toContain(URL_SECRET);
    expect(core.mcp.status('fromCommand')!.state.reason).toContain(CMD_SECRET);
    expect(core.mcp.logs('echo').join('\n')).toContain(ENV_TOKEN);
  });

  it('keeps a secret expanded into a URL out of serversChanged, the answers, the log sink and the kept log lines', async () => {
    core.log.info('a careless line naming a URL', { url: core.mcp.status('fromCommand')!.state.reason });
    core.log.warn('a careless line', { url: `http://x/${URL_SECRET}`, headers: { Authorization: 'Bearer short' } });
    const listed = await dispatch(core.handlers, 'listServers', {});
    const logs = await dispatch(core.handlers, 'serverLogs', { name: 'echo' });
    expect(listed.ok && logs.ok).toBe(true);
    const outputs = { events: events.join('\n'), listed: JSON.stringify(listed), logs: JSON.stringify(logs), sink: sunk.join('\n'), kept: core.log.lines().join('\n') };
    expect(events.some((e) => e.startsWith('serversChanged ') && e.includes('[redacted]'))).toBe(true);
    for (const [edge, text] of Object.entries(outputs)) {
      for (const [what, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${what} in ${edge}`).toBe(false);
    }
    expect(outputs.sink).toContain('{"url":"http://x/[redacted]","headers":{"Authorization":"[redacted]"}}');
    expect(outputs.logs).toContain('starting with token [redacted]');
  });

  it('keeps them out of switchboard status, status --json and doctor', async () => {
    await core.stop();
    for (const args of [['status'], ['status', '--json'], ['doctor']]) {
      const { code, stdout, stderr } = await runCli(home, ...args);
      expect(code, `${args.join(' ')}: ${stderr}`).toBe(1);
      const printed = stdout + stderr;
      for (const [what, secret] of Object.entries(SECRETS)) expect(printed.includes(secret), `${what} in ${args.join(' ')}`).toBe(false);
      expect(printed).toContain('starting with token [redacted]');
    }
  });
});
