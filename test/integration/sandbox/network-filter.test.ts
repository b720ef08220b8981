import { spawn } from 'node:child_process';
import { lookup } from 'node:dns/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import which from 'which';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeSandbox } from '../../../src-main/core/config/sandbox-config';
import { childEnvironment } from '../../../src-main/core/mcp/child-env';
import { StdioProcessTransport } from '../../../src-main/core/mcp/stdio-transport';
import type { Resolve } from '../../../src-main/core/sandbox/net/filtering-proxy';
import { sandboxLaunch } from '../../../src-main/core/sandbox/sandbox-launch';
import { SandboxedTransport } from '../../../src-main/core/sandbox/sandboxed-transport';
import { fixture, tempHome } from '../mcp/helpers';

// SECURITY X1: a sandboxed server reaches only its allowedDomains, through its filtering proxy. Every refusal
// below is paired with the same attempt succeeding with the grant (or unsandboxed), or it would prove nothing.
const HOSTILE = fixture('hostile-network.mjs');

let home: string;
let cleanup: () => Promise<void>;
let granted: Server;
let other: Server;
let grantedPort: number;
let otherPort: number;

/** Made-up names point at this machine's loopback, as a DNS rebinding attacker would make them; the rest (localhost) as the system says. */
const NAMES = new Set(['allowed.test', 'ungranted.test', 'denied.wild.test', 'rebind.wild.test']);
const resolve: Resolve = async (host) => (NAMES.has(host) ? ['127.0.0.1'] : (await lookup(host, { all: true })).map((entry) => entry.address));

async function listen(name: string): Promise<[Server, number]> {
  const server = createServer((req, res) => res.end(`${name} answers ${req.headers.host}`));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return [server, (server.address() as { port: number }).port];
}

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  [granted, grantedPort] = await listen('granted');
  [other, otherPort] = await listen('other');
});

afterAll(async () => {
  granted?.close();
  other?.close();
  await cleanup();
});

interface Running {
  reach: (how: 'fetch' | 'tunnel' | 'forward' | 'socks' | 'direct', host: string, port: number) => Promise<string>;
  logged: string[];
  folder: string | undefined;
  close: () => Promise<void>;
}

/** The hostile server, sandboxed with these network grants (or not at all), behind the real bubblewrap. */
async function run(network: { allowedDomains?: string[]; deniedDomains?: string[] } | 'unsandboxed', args: string[] = []): Promise<Running> {
  const logged: string[] = [];
  const child = { command: process.execPath, args: [HOSTILE, ...args], env: childEnvironment({ HOME: home }, process.env.PATH ?? '') };
  const options = { maxLineBytes: 1 << 20, stopGraceMs: 500, onStderr: () => {}, onNoise: (line: string) => void logged.push(line) };
  let transport: StdioProcessTransport;
  let folder: string | undefined;
  if (network === 'unsandboxed') transport = new StdioProcessTransport({ ...child, ...options });
  else {
    const sandboxed = await sandboxLaunch(child, { settings: normalizeSandbox({ network }), home, dataHome: `${home}/data`, required: false, resolve });
    if (!sandboxed.ok || !sandboxed.plan) throw new Error(sandboxed.ok ? 'not sandboxed' : sandboxed.message);
    folder = sandboxed.network?.folder;
    transport = new SandboxedTransport({ ...sandboxed.launch, ...options }, sandboxed.plan, home, sandboxed.network);
  }
  const client = new Client({ name: 'network-test', version: '1' });
  await client.connect(transport);
  return {
    logged,
    folder,
    close: () => client.close(),
    reach: async (how, host, port) => {
      const result = await client.callTool({ name: 'reach', arguments: { how, host, port } });
      return (JSON.parse((result.content as { text: string }[])[0]!.text) as { outcome: string }).outcome;
    },
  };
}

const NARROW = { allowedDomains: ['allowed.test', '*.wild.test'], deniedDomains: ['denied.wild.test'] };
const refusedBySandbox = (host: string) => expect.stringMatching(new RegExp(`^status 403: blocked by the sandbox: connect to ${host.replace(/\./g, '\\.')} `));

describe('a sandboxed server\'s network: only its allowedDomains, through its own proxy', () => {
  it('reaches its granted host by fetch (Node\'s env proxy), by CONNECT, by a forwarded http request and by SOCKS5', async () => {
    const server = await run(NARROW);
    try {
      expect(await server.reach('fetch', 'allowed.test', grantedPort)).toBe(`ok: granted answers allowed.test:${grantedPort}`);
      expect(await server.reach('tunnel', 'allowed.test', grantedPort)).toBe(`ok: granted answers allowed.test`);
      expect(await server.reach('forward', 'allowed.test', grantedPort)).toBe(`ok: granted answers allowed.test:${grantedPort}`);
      expect(await server.reach('socks', 'allowed.test', grantedPort)).toBe('ok: granted answers allowed.test');
    } finally {
      await server.close();
    }
  });

  it('refuses a denied host, an ungranted one, this machine\'s loopback by number and name, a name resolving to it and the metadata address, each of which the grant opens', async () => {
    const attempts: [string, number][] = [
      ['denied.wild.test', grantedPort],
      ['ungranted.test', grantedPort],
      ['127.0.0.1', otherPort],
      ['localhost', otherPort],
      ['rebind.wild.test', grantedPort],
      ['169.254.169.254', 80],
    ];
    const narrow = await run(NARROW);
    try {
      for (const [host, port] of attempts) {
        expect(await narrow.reach('tunnel', host, port), host).toEqual(refusedBySandbox(host));
        expect(await narrow.reach('forward', host, port), host).toEqual(refusedBySandbox(host));
        expect(await narrow.reach('fetch', host, port), host).toBe('Proxy response (403) !== 200 when HTTP Tunneling');
        expect(await narrow.reach('socks', host, port), host).toBe('socks reply 2');
      }
      // Each one reaches the row as a refusal to connect, except the host the entry denies (Allow cannot help it).
      expect(narrow.logged).toEqual(expect.arrayContaining(['[sandbox] blocked by the sandbox: connect to ungranted.test', '[sandbox] blocked by the sandbox: connect to 169.254.169.254']));
      expect(narrow.logged).toContain('[sandbox] blocked by the sandbox: connect to denied.wild.test (it is in deniedDomains)');
    } finally {
      await narrow.close();
    }
    const wide = await run({ allowedDomains: ['allowed.test', '*.wild.test', ...attempts.map(([host]) => host)] });
    try {
      expect(await wide.reach('fetch', 'denied.wild.test', grantedPort)).toBe(`ok: granted answers denied.wild.test:${grantedPort}`);
      expect(await wide.reach('forward', 'ungranted.test', grantedPort)).toBe(`ok: granted answers ungranted.test:${grantedPort}`);
      expect(await wide.reach('fetch', '127.0.0.1', otherPort)).toBe(`ok: other answers 127.0.0.1:${otherPort}`);
      expect(await wide.reach('tunnel', 'localhost', otherPort)).toBe('ok: other answers localhost');
      expect(await wide.reach('fetch', 'rebind.wild.test', grantedPort)).toBe(`ok: granted answers rebind.wild.test:${grantedPort}`);
      // Whatever answers (or not) at the metadata address here, it is no longer the sandbox refusing.
      expect(await wide.reach('tunnel', '169.254.169.254', 80)).not.toMatch(/blocked by the sandbox/);
      expect(wide.logged.filter((line) => line.startsWith('[sandbox]'))).toEqual([]);
    } finally {
      await wide.close();
    }
  });

  it('gives no route out to a connection that skips the proxy, which works unsandboxed', async () => {
    const open = await run('unsandboxed');
    try {
      expect(await open.reach('direct', '127.0.0.1', grantedPort)).toBe('ok');
      expect(await open.reach('fetch', '127.0.0.1', otherPort)).toBe(`ok: other answers 127.0.0.1:${otherPort}`);
    } finally {
      await open.close();
    }
    const boxed = await run(NARROW);
    try {
      // Its own namespace: loopback holds only the bridge, and nothing leaves it.
      expect(await boxed.reach('direct', '127.0.0.1', grantedPort)).toBe('ECONNREFUSED');
      expect(await boxed.reach('direct', '192.0.2.1', 80)).toBe('ENETUNREACH');
    } finally {
      await boxed.close();
    }
  });

  it('keeps a grant with a port to that port', async () => {
    const server = await run({ allowedDomains: [`allowed.test:${grantedPort}`] });
    try {
      expect(await server.reach('tunnel', 'allowed.test', grantedPort)).toBe('ok: granted answers allowed.test');
      expect(await server.reach('tunnel', 'allowed.test', otherPort)).toEqual(refusedBySandbox('allowed.test'));
    } finally {
      await server.close();
    }
  });

  it('closes the proxy and removes its private folder when the server stops, leaving no descriptor open', async () => {
    const descriptors = () => readdirSync('/proc/self/fd').length;
    const before = descriptors();
    const server = await run(NARROW);
    const folder = server.folder!;
    expect(existsSync(`${folder}/proxy.sock`)).toBe(true);
    // Its fetch keeps a tunnel open through the proxy: gone too once the server is.
    expect(await server.reach('fetch', 'allowed.test', grantedPort)).toMatch(/^ok/);
    await server.close();
    await expect.poll(descriptors).toBeLessThanOrEqual(before);
    expect(existsSync(folder)).toBe(false);
    const refused = await new Promise<string>((done) => connect(`${folder}/proxy.sock`).once('error', (error: NodeJS.ErrnoException) => done(error.code ?? '')));
    expect(refused).toBe('ENOENT');
  });

  it('lets npm itself reach a registry on a granted host through npm_config_proxy, and not one on an ungranted host', async () => {
    const registry = createServer((req, res) => {
      const name = decodeURIComponent(req.url!.slice(1));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ name, 'dist-tags': { latest: '1.2.3' }, versions: { '1.2.3': { name, version: '1.2.3', dist: { tarball: `http://${req.headers.host}/t.tgz` } } } }));
    });
    await new Promise<void>((done) => registry.listen(0, '127.0.0.1', done));
    const port = (registry.address() as { port: number }).port;
    const npmView = async (host: string) => {
      const npm = (await which('npm', { path: process.env.PATH ?? '', nothrow: true }))!;
      const env = childEnvironment({ HOME: home, npm_config_cache: '/tmp/npm-cache', npm_config_update_notifier: 'false' }, process.env.PATH ?? '');
      const sandboxed = await sandboxLaunch({ command: npm, args: ['view', 'some-package', 'version', '--registry', `http://${host}:${port}/`], env }, { settings: normalizeSandbox({ network: NARROW }), home, dataHome: `${home}/data`, required: false, resolve });
      if (!sandboxed.ok || sandboxed.mechanism !== 'bubblewrap' || !sandboxed.network) throw new Error('expected a sandboxed launch with a network');
      await sandboxed.network.open();
      try {
        const child = spawn(sandboxed.launch.command, sandboxed.launch.args, { env: sandboxed.launch.env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        const code = await new Promise<number | null>((done) => child.once('close', done));
        return { code, out: out.trim() };
      } finally {
        await sandboxed.network.close();
      }
    };
    try {
      expect(await npmView('allowed.test')).toEqual({ code: 0, out: '1.2.3' });
      const refused = await npmView('ungranted.test');
      expect(refused.code).not.toBe(0);
      expect(refused.out).toMatch(/403/);
    } finally {
      registry.close();
    }
  });

  it('still stops the whole tree, bridge included, of a server that ignores SIGTERM and stdin', async () => {
    const folder = await mkdtemp(join(home, 'stubborn-'));
    const marker = join(folder, 'pids.json');
    const withMarker = () => readdirSync('/proc').filter((pid) => /^\d+$/.test(pid) && cmdline(pid).includes(marker));
    const sandboxed = await sandboxLaunch(
      { command: process.execPath, args: [fixture('stubborn.mjs'), marker], env: childEnvironment({ HOME: home }, process.env.PATH ?? '') },
      { settings: normalizeSandbox({ network: NARROW, filesystem: { allowWrite: [folder] } }), home, dataHome: `${home}/data`, required: false, resolve },
    );
    if (!sandboxed.ok || !sandboxed.plan) throw new Error('expected a sandboxed launch');
    const transport = new SandboxedTransport({ ...sandboxed.launch, maxLineBytes: 1 << 20, stopGraceMs: 300, onStderr: () => {}, onNoise: () => {} }, sandboxed.plan, home, sandboxed.network);
    const client = new Client({ name: 'network-test', version: '1' });
    await client.connect(transport);
    await expect.poll(() => existsSync(marker)).toBe(true);
    // The bridge and the server both carry the marker in their arguments.
    expect(withMarker().length).toBeGreaterThanOrEqual(2);
    await client.close();
    await expect.poll(withMarker, { timeout: 10_000 }).toEqual([]);
    expect(existsSync(sandboxed.network!.folder)).toBe(false);
  });
});

function cmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}
