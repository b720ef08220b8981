import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { formatBytes, StdioProcessTransport } from '../../../src-main/core/mcp/stdio-transport';

const transports: StdioProcessTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
});

/** A transport running `node -e script [...extraArgs]`, collecting what it delivers. */
function start(script: string, maxLineBytes = 1024 * 1024, extraArgs: string[] = []) {
  const messages: JSONRPCMessage[] = [];
  const noise: string[] = [];
  const stderr: string[] = [];
  const errors: string[] = [];
  let closed = false;
  const transport = new StdioProcessTransport({
    command: process.execPath,
    args: ['-e', script, ...extraArgs],
    env: { PATH: process.env.PATH ?? '' },
    maxLineBytes,
    stopGraceMs: 300,
    onStderr: (chunk) => stderr.push(chunk),
    onNoise: (line) => noise.push(line),
  });
  transport.onmessage = (m) => messages.push(m);
  transport.onerror = (e) => errors.push(e.message);
  transport.onclose = () => (closed = true);
  transports.push(transport);
  return { transport, messages, noise, stderr, errors, isClosed: () => closed };
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((d) => setTimeout(d, 20));
};

describe('StdioProcessTransport', () => {
  it('reassembles a message split across writes and reports non-JSON lines as noise', async () => {
    const script = `
      const msg = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
      process.stdout.write('plain text\\n');
      process.stdout.write(msg.slice(0, 10));
      setTimeout(() => process.stdout.write(msg.slice(10) + '\\n'), 50);
      setTimeout(() => {}, 5000);`;
    const t = start(script);
    await t.transport.start();
    await until(() => t.messages.length > 0);
    expect(t.messages).toEqual([{ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } }]);
    expect(t.noise).toEqual(['[stdout, not JSON-RPC, ignored] plain text']);
  });

  it('gives up on a line over the cap with a reason naming the cap, and stops the child', async () => {
    const t = start(`process.stdout.write('z'.repeat(5000)); setInterval(() => {}, 1000);`, 2048);
    await t.transport.start();
    await until(() => t.isClosed());
    expect(t.transport.fatal).toBe('stdout line over 2 KiB; stopped reading this server');
    expect(t.errors).toEqual(['stdout line over 2 KiB; stopped reading this server']);
    expect(t.isClosed()).toBe(true);
  });

  it('records the exit code and stderr of a child that dies', async () => {
    const t = start(`process.stderr.write('bad thing\\n'); process.exit(7);`);
    await t.transport.start();
    await until(() => t.isClosed());
    expect(t.transport.exit).toEqual({ code: 7, signal: null });
    expect(t.stderr.join('')).toBe('bad thing\n');
  });

  it('stops a polite child by closing stdin, without any signal', async () => {
    const t = start(`process.on('SIGTERM', () => { console.error('got SIGTERM'); process.exit(9); }); process.stdin.resume(); process.stdin.on('end', () => process.exit(0)); console.error('ready');`);
    await t.transport.start();
    // Close only once the child listens: on a busy machine node can take longer to boot than the grace period.
    await until(() => t.stderr.join('').includes('ready'));
    await t.transport.close();
    expect(t.transport.exit).toEqual({ code: 0, signal: null });
    expect(t.stderr.join('')).toBe('ready\n');
  });

  it('escalates to SIGTERM for a child that ignores stdin closing', async () => {
    const t = start(`setInterval(() => {}, 1000);`);
    await t.transport.start();
    await t.transport.close();
    expect(t.transport.exit).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('hands shell syntax in the args to the child as literal text, and no shell runs it (P2)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-no-shell-'));
    try {
      const marker = join(dir, 'ran');
      const args = [`$(touch ${marker})`, `; touch ${marker}`, `\`touch ${marker}\``, `| touch ${marker}`, '$HOME', '*'];
      // process.argv of `node -e script a b` is [node, a, b]: what arrives is echoed on stderr.
      const t = start(`process.stderr.write(JSON.stringify(process.argv.slice(1)));`, 1024 * 1024, args);
      await t.transport.start();
      await until(() => t.isClosed());
      expect(JSON.parse(t.stderr.join(''))).toEqual(args);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.runIf(process.platform !== 'win32')('kills every process group it started when this process exits without stopping them (P4)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-exit-hook-'));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    let pids: { parent: number; child: number } | undefined;
    try {
      const pidFile = join(dir, 'pids.json');
      const stubborn = join(import.meta.dirname, '../../fixtures/servers/stubborn.mjs');
      await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'exit-without-stop-child.ts'), stubborn, pidFile]);
      pids = JSON.parse(await readFile(pidFile, 'utf8')) as { parent: number; child: number };
      await until(() => !alive(pids!.parent) && !alive(pids!.child));
      expect([alive(pids.parent), alive(pids.child)]).toEqual([false, false]);
    } finally {
      for (const pid of pids ? [pids.parent, pids.child] : []) if (alive(pid)) process.kill(pid, 'SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to send once the child is gone', async () => {
    const t = start(`process.exit(0);`);
    await t.transport.start();
    await until(() => t.isClosed());
    await expect(t.transport.send({ jsonrpc: '2.0', method: 'ping', id: 1 })).rejects.toThrow('the server process is not running');
  });
});

describe('formatBytes', () => {
  it('reads naturally', () => {
    expect(formatBytes(4 * 1024 * 1024)).toBe('4 MiB');
    expect(formatBytes(2048)).toBe('2 KiB');
    expect(formatBytes(1000)).toBe('1000 bytes');
  });
});
