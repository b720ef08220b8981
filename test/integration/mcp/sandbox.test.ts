import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeSandbox } from '../../../src-main/core/config/sandbox-config';
import type { StdioServerConfig } from '../../../src-main/core/config/server-config';
import { prepareStdio } from '../../../src-main/core/mcp/stdio-launch';
import { EVERYTHING, FILESYSTEM, MEMORY, fixture, manager, stdio, tempHome, waitForState } from './helpers';

// SECURITY X1: the same hostile server, run with and without the sandbox, in one test each time.
const HOSTILE = fixture('hostile-sandbox.mjs');
const BASHRC = '# the person\'s own shell setup\n';

let home: string;
let cleanup: () => Promise<void>;
let listener: Server;
let port: number;
let bus: ChildProcess;
let busAddress: string;
const savedHome = process.env.SWITCHBOARD_HOME;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  await mkdir(join(home, '.ssh'), { recursive: true });
  await writeFile(join(home, '.ssh', 'id_ed25519'), 'FAKE PRIVATE KEY');
  await writeFile(join(home, '.netrc'), 'machine example.com password hunter2');
  await writeFile(join(home, '.bashrc'), BASHRC);
  const data = join(home, '.config', 'Switchboard');
  await mkdir(data, { recursive: true });
  await writeFile(join(data, 'servers.json'), '{"mcpServers":{}}');
  process.env.SWITCHBOARD_HOME = data;
  listener = createServer((socket) => socket.end());
  await new Promise<void>((done) => listener.listen(0, '127.0.0.1', done));
  port = (listener.address() as { port: number }).port;
  bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], { stdio: ['ignore', 'pipe', 'ignore'] });
  busAddress = await new Promise<string>((done) => bus.stdout!.once('data', (chunk: Buffer) => done(chunk.toString().trim())));
});

afterAll(async () => {
  if (savedHome === undefined) delete process.env.SWITCHBOARD_HOME;
  else process.env.SWITCHBOARD_HOME = savedHome;
  bus?.kill();
  listener?.close();
  await cleanup();
});

const options = { loginPath: async () => process.env.PATH ?? '', maxLineBytes: 1 << 20, stopGraceMs: 500, onStderr: () => {}, onNoise: () => {} };

async function connected(config: StdioServerConfig): Promise<Client> {
  const prepared = await prepareStdio(config, options);
  if (!prepared.ok) throw new Error(prepared.message);
  const client = new Client({ name: 'sandbox-test', version: '1' });
  await client.connect(prepared.transport);
  return client;
}

async function probe(sandboxEnabled: boolean): Promise<Record<string, string>> {
  const client = await connected(stdio('hostile', [HOSTILE], { env: { HOME: home, LOOPBACK_PORT: String(port), BUS_ADDRESS: busAddress }, sandboxEnabled }));
  try {
    const result = await client.callTool({ name: 'probe', arguments: {} });
    return JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, string>;
  } finally {
    await client.close();
  }
}

describe('the sandbox around a local server (bubblewrap)', () => {
  it('refuses a hostile server the SSH key, servers.json, ~/.bashrc, loopback and the session bus, all of which it gets unsandboxed', async () => {
    const open = await probe(false);
    expect(open).toEqual({ sshKey: 'ok', serversJson: 'ok', bashrc: 'ok', loopback: 'ok', sessionBus: 'ok' });
    await writeFile(join(home, '.bashrc'), BASHRC);

    const boxed = await probe(true);
    expect(boxed.sshKey).toBe('ENOENT');
    expect(boxed.serversJson).toBe('ENOENT');
    expect(boxed.bashrc).toBe('EROFS');
    expect(boxed.loopback).not.toBe('ok');
    expect(boxed.sessionBus).not.toBe('ok');
    expect(await readFile(join(home, '.bashrc'), 'utf8')).toBe(BASHRC);
  });

  it('names what was refused as the reason of a server that dies of it (blocked by the sandbox: read ~/.netrc)', async () => {
    const mgr = manager(home);
    const server = (sandboxEnabled: boolean) => stdio('reader', [HOSTILE, '--read-on-start', '~/.netrc'], { env: { HOME: home }, sandboxEnabled });
    try {
      await mgr.apply([server(true)]);
      const state = await waitForState(mgr, 'reader', (s) => s.kind === 'error');
      expect(state.reason).toBe('blocked by the sandbox: read ~/.netrc');
      await mgr.apply([server(false)]);
      await waitForState(mgr, 'reader', (s) => s.kind === 'connected');
    } finally {
      await mgr.stop();
    }
  });

  it("names the host of a download the sandbox refused as the reason a start then timed out (npm's retry), where unsandboxed it downloads and connects", async () => {
    const registry = createHttpServer((_, response) => response.end('{}'));
    await new Promise<void>((done) => registry.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(registry.address() as { port: number }).port}/fixture-dep`;
    const mgr = manager(home);
    const server = (sandboxEnabled: boolean) => stdio('runner', [fixture('slow-package-manager.mjs'), 'fetch', url, EVERYTHING], { env: { HOME: home }, sandboxEnabled, timeout: 1 });
    try {
      await mgr.apply([server(false)]);
      await waitForState(mgr, 'runner', (s) => s.kind === 'connected');
      await mgr.apply([server(true)]);
      const state = await waitForState(mgr, 'runner', (s) => s.kind === 'error');
      expect(state.reason).toBe(`blocked by the sandbox: connect to ${new URL(url).host}`);
    } finally {
      await mgr.stop();
      registry.close();
    }
  });

  it('keeps the filesystem server reading and writing in the folder its argument grants', async () => {
    const granted = join(home, 'projects');
    await mkdir(granted, { recursive: true });
    await writeFile(join(granted, 'notes.txt'), 'hello from the grant');
    const client = await connected(stdio('fs', [FILESYSTEM, granted], { env: { HOME: home }, sandboxEnabled: true }));
    try {
      const read = await client.callTool({ name: 'read_text_file', arguments: { path: join(granted, 'notes.txt') } });
      expect(JSON.stringify(read.content)).toContain('hello from the grant');
      const write = await client.callTool({ name: 'write_file', arguments: { path: join(granted, 'new.txt'), content: 'written inside' } });
      expect(write.isError).toBeFalsy();
      expect(await readFile(join(granted, 'new.txt'), 'utf8')).toBe('written inside');
    } finally {
      await client.close();
    }
  });

  it('keeps server-memory and server-everything working sandboxed', async () => {
    const memoryFile = join(home, 'memory-grant');
    await mkdir(memoryFile, { recursive: true });
    const memory = await connected(
      stdio('memory', [MEMORY], { env: { HOME: home, MEMORY_FILE_PATH: join(memoryFile, 'memory.json') }, sandboxEnabled: true, sandbox: normalizeSandbox({ filesystem: { allowWrite: [memoryFile] } }) }),
    );
    const everything = await connected(stdio('everything', [EVERYTHING], { env: { HOME: home }, sandboxEnabled: true }));
    try {
      const created = await memory.callTool({ name: 'create_entities', arguments: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] } });
      expect(created.isError).toBeFalsy();
      expect(await readFile(join(memoryFile, 'memory.json'), 'utf8')).toContain('Ada');
      const echo = await everything.callTool({ name: 'echo', arguments: { message: 'inside the box' } });
      expect(JSON.stringify(echo.content)).toContain('inside the box');
    } finally {
      await Promise.all([memory.close(), everything.close()]);
    }
  });
});

/**
 * A package npm installed somewhere under /tmp (the sandbox gives every server a private /tmp) whose
 * dependency npm hoisted beside it: a bare JSON-RPC server, so nothing else from this checkout is needed.
 */
async function hoistedPackage(): Promise<{ server: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'switchboard-hoisted-'));
  const modules = join(root, 'node_modules');
  await mkdir(join(modules, 'hoisted-dep'), { recursive: true });
  await writeFile(join(modules, 'hoisted-dep', 'package.json'), '{"name":"hoisted-dep","main":"index.js"}');
  await writeFile(join(modules, 'hoisted-dep', 'index.js'), "module.exports = 'found my hoisted dependency';");
  await mkdir(join(modules, 'tiny-server', 'dist'), { recursive: true });
  await writeFile(join(modules, 'tiny-server', 'package.json'), '{"name":"tiny-server","type":"module"}');
  const server = join(modules, 'tiny-server', 'dist', 'server.js');
  await writeFile(
    server,
    `import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
const text = createRequire(import.meta.url)('hoisted-dep');
const answer = (id, result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const { id, method, params } = JSON.parse(line);
  if (method === 'initialize') answer(id, { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1' } });
  else if (method === 'tools/list') answer(id, { tools: [{ name: 'which', inputSchema: { type: 'object' } }] });
  else if (method === 'tools/call') answer(id, { content: [{ type: 'text', text }] });
  else if (id !== undefined) answer(id, {});
});
`,
  );
  return { server, cleanup: () => rm(root, { recursive: true, force: true }) };
}

describe('a sandboxed package and its dependencies', () => {
  it('runs a package installed under /tmp whose dependencies npm hoisted into the node_modules above it', async () => {
    const { server, cleanup: remove } = await hoistedPackage();
    try {
      const client = await connected(stdio('tiny', [server], { env: { HOME: home }, sandboxEnabled: true }));
      try {
        const result = await client.callTool({ name: 'which', arguments: {} });
        expect(JSON.stringify(result.content)).toContain('found my hoisted dependency');
      } finally {
        await client.close();
      }
    } finally {
      await remove();
    }
  });
});

describe('the administrator\'s policy at a local server\'s start (SECURITY X2)', () => {
  const withPolicy = async (text: string, run: () => Promise<void>) => {
    const path = join(home, 'policy.json');
    await writeFile(path, text);
    process.env.SWITCHBOARD_POLICY = path;
    try {
      await run();
    } finally {
      delete process.env.SWITCHBOARD_POLICY;
    }
  };
  const hostile = (sandboxEnabled: boolean) => stdio('hostile', [HOSTILE], { env: { HOME: home, LOOPBACK_PORT: String(port), BUS_ADDRESS: busAddress }, sandboxEnabled });

  it('does not start a server the policy denies, and says who decided', async () => {
    await withPolicy(JSON.stringify({ deniedServers: [{ command: 'node' }] }), async () => {
      expect(await prepareStdio(hostile(false), options)).toEqual({ ok: false, message: 'refused: this server is blocked (set by your organization)' });
    });
    expect((await prepareStdio(hostile(false), options)).ok).toBe(true);
  });

  it('runs a server sandboxed when the policy requires it, even though its entry says off', async () => {
    await withPolicy(JSON.stringify({ sandbox: 'required' }), async () => {
      expect((await probe(false)).sshKey).toBe('ENOENT');
    });
  });

  it('refuses every server while the policy file is broken, with the reason', async () => {
    await withPolicy('{ "sandbox": ', async () => {
      const result = await prepareStdio(hostile(true), options);
      expect(result).toEqual({ ok: false, message: expect.stringMatching(/^refused: the policy set by your organization is broken \(.*policy\.json is not valid JSON/) });
    });
  });
});

describe('grants that would open the data home', () => {
  it('keeps servers.json hidden even when the person grants the whole home folder', async () => {
    const client = await connected(
      stdio('hostile', [HOSTILE], { env: { HOME: home, LOOPBACK_PORT: String(port), BUS_ADDRESS: busAddress }, sandboxEnabled: true, sandbox: normalizeSandbox({ filesystem: { allowRead: ['~'] } }) }),
    );
    try {
      const result = await client.callTool({ name: 'probe', arguments: {} });
      const probed = JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, string>;
      expect(probed.sshKey).toBe('ok');
      expect(probed.serversJson).toBe('ENOENT');
    } finally {
      await client.close();
    }
  });
});
