import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { StdioServerConfig } from '../../src-main/core/config/server-config';
import type { Logger } from '../../src-main/core/ports';

const here = dirname(fileURLToPath(import.meta.url));
export const REPO = resolve(here, '../..');
export const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const BENCH_SERVER = join(REPO, 'bench/fixtures/bench-server.mjs');

export interface ServerCommand {
  command: string;
  args: string[];
}

/**
 * Both sides run their servers on this Node, named by path: Switchboard resolves a bare `node` through the
 * login shell's PATH, which may find another Node than the bench's (here /usr/bin/node 20 against the
 * project's 24, a quarter slower to start ten servers), and that would be timed as Switchboard's cost.
 */
const NODE = process.execPath;
export const everything = (): ServerCommand => ({ command: NODE, args: [EVERYTHING, 'stdio'] });
export const benchServer = (tools = 0, id = ''): ServerCommand => ({ command: NODE, args: [BENCH_SERVER, '--tools', String(tools), ...(id ? ['--id', id] : [])] });

export const quietLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** What a user writes through Switchboard: trusted, approval auto (the bench measures the call path, not a dialog). */
export function stdioConfig(name: string, server: ServerCommand, home: string): StdioServerConfig {
  return {
    kind: 'stdio',
    name,
    command: server.command,
    args: server.args,
    env: {},
    enabled: true,
    timeout: 60,
    toolTimeout: 120,
    approval: 'auto',
    source: { path: join(home, 'servers.json'), origin: 'switchboard', userWritten: true },
  };
}

/**
 * Where the raw SDK's server runs. Switchboard starts each server in its own session (detached,
 * for process-group stops); with the kernel's autogroup scheduling a session is also its own CPU
 * group, which on a loaded machine gives each server a fair share against everything else. 'own'
 * runs the raw SDK's server under setsid(1) so both sides get the same scheduling; 'shared' is the
 * SDK's StdioClientTransport exactly as it comes (children in the bench's session).
 */
export type RawSession = 'own' | 'shared';

/**
 * The raw SDK: one Client over the SDK's own StdioClientTransport; stderr drained like Switchboard
 * does. It declares roots as Switchboard does, so servers offer both the same tools (server-everything
 * adds get-roots-list for a client with roots).
 */
export async function rawConnect(server: ServerCommand, session: RawSession = 'own'): Promise<Client> {
  const launch = session === 'own' ? { command: 'setsid', args: [server.command, ...server.args] } : server;
  const client = new Client({ name: 'raw-sdk-bench', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [] }));
  const transport = new StdioClientTransport({ command: launch.command, args: launch.args, stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  await client.connect(transport);
  return client;
}

export async function closeAll(clients: Client[]): Promise<void> {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
}

/** A throwaway data home; removed by the returned cleanup. */
export async function tempHome(label: string): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), `switchboard-bench-${label}-`));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

export function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run the bench with node --expose-gc (npm run bench does)');
  collect();
  collect();
}

/**
 * Wait (up to timeoutMs) until this process has no server processes left; returns how many remain.
 * tsx's esbuild service and ps itself are children too, and do not count.
 */
export async function childrenGone(timeoutMs = 15_000): Promise<number> {
  const { execFile } = await import('node:child_process');
  const list = () =>
    new Promise<number>((resolve) => {
      execFile('ps', ['-o', 'args=', '--ppid', String(process.pid)], (_error, stdout) => {
        const lines = stdout.split('\n').filter((l) => l.trim() !== '' && !/esbuild|^ps /.test(l.trim()));
        resolve(lines.length);
      });
    });
  const deadline = Date.now() + timeoutMs;
  let left = await list();
  while (left > 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 100));
    left = await list();
  }
  return left;
}
