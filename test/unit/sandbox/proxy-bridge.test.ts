import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bridgeRuntime, bridgeScript } from '../../../src-main/core/sandbox/net/proxy-bridge';

describe('bridgeRuntime (the Node the bridge runs on)', () => {
  it('is this very Node outside Electron', () => {
    expect(bridgeRuntime({ execPath: '/usr/bin/node', electron: false, packaged: false }, '/opt/node/bin/node')).toEqual({ ok: true, command: '/usr/bin/node', env: {} });
  });

  it('is Electron\'s own binary acting as Node while developing', () => {
    expect(bridgeRuntime({ execPath: '/opt/electron/electron', electron: true, packaged: false }, undefined)).toEqual({ ok: true, command: '/opt/electron/electron', env: { ELECTRON_RUN_AS_NODE: '1' } });
  });

  it('is the login PATH\'s node in a packaged app, whose RunAsNode fuse is off, and says so when there is none', () => {
    const packaged = { execPath: '/opt/Switchboard/switchboard', electron: true, packaged: true };
    expect(bridgeRuntime(packaged, '/usr/local/bin/node')).toEqual({ ok: true, command: '/usr/local/bin/node', env: {} });
    expect(bridgeRuntime(packaged, undefined)).toEqual({ ok: false, message: expect.stringContaining('needs Node (node on the PATH)') });
  });
});

describe('the bridge script', () => {
  let folder: string;
  let bridge: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'bridge-test-'));
    bridge = join(folder, 'bridge.mjs');
    await writeFile(bridge, bridgeScript());
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const freePort = async () => {
    const probe = createServer();
    await new Promise<void>((done) => probe.listen(0, '127.0.0.1', done));
    const { port } = probe.address() as AddressInfo;
    await new Promise((done) => probe.close(done));
    return port;
  };

  /** Runs `node -e code` behind the bridge; resolves with how it ended and what it printed. */
  function behindBridge(code: string, socket = join(folder, 'none.sock'), port = 0, env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [bridge, socket, String(port), process.execPath, '-e', code], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; out: string }>((done) => child.once('close', (code, signal) => done({ code, signal, out })));
    return { child, ended, output: () => out };
  }

  it('starts the command with stdio passed through, without ELECTRON_RUN_AS_NODE, and ends with its exit code', async () => {
    const run = behindBridge('process.stdin.once("data", (d) => { console.log("got " + d.toString().trim() + " " + (process.env.ELECTRON_RUN_AS_NODE ?? "unset")); process.exit(7); })', undefined, await freePort(), { ELECTRON_RUN_AS_NODE: '1' });
    run.child.stdin.write('hello\n');
    expect(await run.ended).toEqual({ code: 7, signal: null, out: 'got hello unset\n' });
  });

  it('passes a stop signal on to the command', async () => {
    const run = behindBridge('process.on("SIGTERM", () => { console.log("the command got SIGTERM"); process.exit(3); }); console.log("ready"); setInterval(() => {}, 1000)', undefined, await freePort());
    await expect.poll(run.output).toBe('ready\n');
    run.child.kill('SIGTERM');
    expect(await run.ended).toEqual({ code: 3, signal: null, out: 'ready\nthe command got SIGTERM\n' });
  });

  it('ends by the signal that ended the command', async () => {
    const run = behindBridge('process.kill(process.pid, "SIGKILL")', undefined, await freePort());
    expect(await run.ended).toMatchObject({ code: null, signal: 'SIGKILL' });
  });

  it('carries a connection to its port through to the proxy\'s UNIX socket', async () => {
    const socket = join(folder, 'proxy.sock');
    const proxy = createHttpServer((_req, res) => res.end('through the socket'));
    await new Promise<void>((done) => proxy.listen(socket, done));
    const port = await freePort();
    const run = behindBridge('console.log("ready"); setInterval(() => {}, 1000)', socket, port);
    try {
      await expect.poll(run.output).toBe('ready\n');
      const body = await new Promise<string>((done, fail) => get({ host: '127.0.0.1', port, path: '/' }, (res) => res.setEncoding('utf8').on('data', done)).on('error', fail));
      expect(body).toBe('through the socket');
    } finally {
      run.child.kill('SIGTERM');
      await run.ended;
      proxy.close();
    }
  });

  it('says why and exits when its port is taken, rather than start a server that cannot reach its grants', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const run = behindBridge('console.log("should not start")', undefined, (taken.address() as AddressInfo).port);
    const ended = await run.ended;
    taken.close();
    expect(ended.code).toBe(70);
    expect(ended.out).toMatch(/^sandbox network bridge: listen EADDRINUSE/);
  });
});
