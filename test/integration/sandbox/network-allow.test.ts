import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import type { SecretVault } from '../../../src-main/core/ports';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { fixture, quietLogger, tempHome } from '../mcp/helpers';

// SECURITY X1: a host the filtering proxy refuses reaches the row like any refusal, and Allow grants exactly it.
const vault: SecretVault = { get: async () => undefined, set: async () => {}, delete: async () => false, list: async () => [] };

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore | undefined;
let listener: Server;
let port: number;
const savedHome = process.env.SWITCHBOARD_HOME;

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  process.env.SWITCHBOARD_HOME = join(home, 'data');
  listener = createServer((_req, res) => res.end('the listener answers'));
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  port = (listener.address() as { port: number }).port;
});

afterEach(async () => {
  await core?.stop();
  core = undefined;
  listener.close();
  if (savedHome === undefined) delete process.env.SWITCHBOARD_HOME;
  else process.env.SWITCHBOARD_HOME = savedHome;
  await cleanup();
});

async function row(c: SwitchboardCore, name: string, done: (s: ServerView) => boolean): Promise<ServerView> {
  for (let i = 0; i < 4500; i++) {
    const server = c.snapshot().servers.find((s) => s.name === name);
    if (server && done(server)) return server;
    await new Promise((d) => setTimeout(d, 20));
  }
  throw new Error(`${name} never got there: ${JSON.stringify(c.snapshot().servers.find((s) => s.name === name))}`);
}

describe('Allow on a host the sandbox\'s proxy refused', () => {
  it('shows "connect to localhost" on the row, and Allow writes it into allowedDomains and the fetch gets through', async () => {
    const data = join(home, 'data');
    const person = join(home, 'person');
    await mkdir(data, { recursive: true });
    await mkdir(person, { recursive: true });
    const entry = {
      command: 'node',
      args: [fixture('hostile-network.mjs'), '--fetch-on-start', `http://localhost:${port}/`],
      env: { HOME: person },
      sandboxEnabled: true,
      sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } },
    };
    await writeFile(join(data, 'servers.json'), JSON.stringify({ servers: { fetcher: entry } }, null, 2));
    core = new SwitchboardCore({ home: data, vault, opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
    await core.start();

    const refused = await row(core, 'fetcher', (s) => s.state === 'error');
    expect(refused.reason).toBe('blocked by the sandbox: connect to localhost');
    expect(refused.sandbox).toMatchObject({ status: 'on', denial: { kind: 'connect', text: 'blocked by the sandbox: connect to localhost' } });

    expect(await dispatch(core.handlers, 'allowSandboxDenial', { name: 'fetcher' })).toEqual({ ok: true, value: null });
    const written = JSON.parse(await readFile(join(data, 'servers.json'), 'utf8')) as { servers: Record<string, { sandbox: unknown }> };
    expect(written.servers.fetcher!.sandbox).toEqual({ network: { allowedDomains: ['registry.npmjs.org', 'localhost'] } });
    await row(core, 'fetcher', (s) => s.state === 'connected');
  }, 180_000);
});
