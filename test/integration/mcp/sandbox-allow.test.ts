import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import type { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { startCoreOn } from '../config/core-steps';
import { fixture, tempHome } from './helpers';

// SECURITY X1: a refusal is shown on the server's row, and Allow grants exactly it and restarts the server.

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore | undefined;
const savedHome = process.env.SWITCHBOARD_HOME;
beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  process.env.SWITCHBOARD_HOME = home;
});
afterEach(async () => {
  await core?.stop();
  core = undefined;
  if (savedHome === undefined) delete process.env.SWITCHBOARD_HOME;
  else process.env.SWITCHBOARD_HOME = savedHome;
  await cleanup();
});

async function startCore(servers: Record<string, unknown>, data = home): Promise<SwitchboardCore> {
  return (core = await startCoreOn(data, servers));
}

async function row(c: SwitchboardCore, name: string, done: (s: ServerView) => boolean): Promise<ServerView> {
  for (let i = 0; i < 4500; i++) {
    const server = c.snapshot().servers.find((s) => s.name === name);
    if (server && done(server)) return server;
    await new Promise((d) => setTimeout(d, 20));
  }
  throw new Error(`${name} never got there: ${JSON.stringify(c.snapshot().servers.find((s) => s.name === name))}`);
}

describe('Allow on a sandbox refusal', () => {
  it('shows the refusal of ~/.netrc on the row, and Allow writes allowRead and the server starts', async () => {
    // The person's HOME, apart from the data home (nothing inside that is ever granted).
    const person = join(home, 'person');
    process.env.SWITCHBOARD_HOME = join(home, 'data');
    await mkdir(person, { recursive: true });
    await writeFile(join(person, '.netrc'), 'machine example.com password hunter2');
    const c = await startCore({ reader: { command: 'node', args: [fixture('hostile-sandbox.mjs'), '--read-on-start', '~/.netrc'], env: { HOME: person }, sandboxEnabled: true } }, join(home, 'data'));
    const refused = await row(c, 'reader', (s) => s.state === 'error');
    expect(refused.reason).toBe('blocked by the sandbox: read ~/.netrc');
    expect(refused.sandbox).toMatchObject({ status: 'on', setByOrganization: false, domains: [], denial: { kind: 'read', text: 'blocked by the sandbox: read ~/.netrc' } });

    expect(await dispatch(c.handlers, 'allowSandboxDenial', { name: 'reader' })).toEqual({ ok: true, value: null });
    const written = JSON.parse(await readFile(join(home, 'data', 'servers.json'), 'utf8')) as { servers: Record<string, { sandbox: unknown; sandboxEnabled: boolean }> };
    expect(written.servers.reader).toMatchObject({ sandboxEnabled: true, sandbox: { filesystem: { allowRead: [join(person, '.netrc')] } } });
    const allowed = await row(c, 'reader', (s) => s.state === 'connected');
    expect(allowed.sandbox?.grants).toContainEqual({ path: join(person, '.netrc'), access: 'read', from: 'setting' });
  }, 180_000);

  it('grants only what the server\'s own state reports: the page cannot name a path, and a server without a refusal gets nothing', async () => {
    const c = await startCore({ box: { command: 'node', args: [fixture('toolbox.mjs')], sandboxEnabled: true } });
    await row(c, 'box', (s) => s.state === 'connected');
    const before = await readFile(join(home, 'servers.json'), 'utf8');
    expect(await dispatch(c.handlers, 'allowSandboxDenial', { name: 'box', path: '/home' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await dispatch(c.handlers, 'allowSandboxDenial', { name: 'box' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'server "box" has no sandbox refusal to allow' },
    });
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(before);
  });
});


describe('Allow on a host the sandbox\'s network proxy refused', () => {
  it('shows "connect to localhost" on the row, and Allow writes it into allowedDomains and the fetch gets through', async () => {
    const listener = createServer((_req, res) => res.end('the listener answers'));
    await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
    const port = (listener.address() as AddressInfo).port;
    const person = join(home, 'person');
    await mkdir(person, { recursive: true });
    try {
      const c = await startCore({
        fetcher: {
          command: 'node',
          args: [fixture('hostile-network.mjs'), '--fetch-on-start', `http://localhost:${port}/`],
          env: { HOME: person },
          sandboxEnabled: true,
          sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } },
        },
      });
      const refused = await row(c, 'fetcher', (s) => s.state === 'error');
      expect(refused.reason).toBe('blocked by the sandbox: connect to localhost');
      expect(refused.sandbox).toMatchObject({ status: 'on', denial: { kind: 'connect', text: 'blocked by the sandbox: connect to localhost' } });

      expect(await dispatch(c.handlers, 'allowSandboxDenial', { name: 'fetcher' })).toEqual({ ok: true, value: null });
      const written = JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { servers: Record<string, { sandbox: unknown }> };
      expect(written.servers.fetcher!.sandbox).toEqual({ network: { allowedDomains: ['registry.npmjs.org', 'localhost'] } });
      await row(c, 'fetcher', (s) => s.state === 'connected');
    } finally {
      listener.close();
    }
  }, 180_000);
});

describe('Allow never opens the data home', () => {
  it('refuses to grant a refusal inside Switchboard\'s data home, and writes nothing', async () => {
    await writeFile(join(home, '.netrc'), 'x');
    const c = await startCore({ reader: { command: 'node', args: [fixture('hostile-sandbox.mjs'), '--read-on-start', '~/.netrc'], env: { HOME: home }, sandboxEnabled: true } });
    await row(c, 'reader', (s) => s.state === 'error');
    const before = await readFile(join(home, 'servers.json'), 'utf8');
    expect(await dispatch(c.handlers, 'allowSandboxDenial', { name: 'reader' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `${join(home, '.netrc')} is Switchboard's own data; no server is given it` },
    });
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(before);
  });
});

describe('the policy on a remote server (SECURITY X2)', () => {
  it('does not connect a remote server whose host the policy denies, even behind a ${VAR}, and says who decided', async () => {
    const policy = join(home, 'policy.json');
    await writeFile(policy, JSON.stringify({ deniedServers: [{ urlHost: 'mcp.denied.example' }] }));
    process.env.SWITCHBOARD_POLICY = policy;
    process.env.SANDBOX_TEST_HOST = 'mcp.denied.example';
    try {
      const c = await startCore({ denied: { url: 'https://${SANDBOX_TEST_HOST}/mcp' } });
      const refused = await row(c, 'denied', (s) => s.state === 'error');
      expect(refused.reason).toBe('refused: this server is blocked (set by your organization)');
    } finally {
      delete process.env.SWITCHBOARD_POLICY;
      delete process.env.SANDBOX_TEST_HOST;
    }
  });
});
