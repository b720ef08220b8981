import { spawn, type ChildProcess } from 'node:child_process';
import { deserializeMessage, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface StdioLaunch {
  /** Absolute path of the executable (already resolved on the login PATH). */
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Longest stdout line accepted; a longer one ends this server's connection. */
  maxLineBytes: number;
  /** How long each stop step (stdin closed, then SIGTERM) waits before the next. */
  stopGraceMs: number;
  onStderr: (chunk: string) => void;
  /** A stdout line that is not JSON-RPC: dropped, shown in the server's log. */
  onNoise: (line: string) => void;
}

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Process groups started and not yet swept. If this process dies without stopping its
 * servers (an uncaught error, process.exit), a synchronous exit hook SIGKILLs them all so
 * nothing is orphaned.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled || process.platform === 'win32') return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** How the child ended, for the state reason ("exited with code 1"). */
export type ChildExit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * MCP over a child's stdin/stdout, framed like the SDK's ReadBuffer (its deserializeMessage
 * and serializeMessage) but with a per-line cap and the offending line kept for the log. Unlike the SDK's
 * transport it starts the child as the leader of its own process group and stops the
 * whole group by steps (SECURITY P4): close stdin, SIGTERM, SIGKILL. Never a shell (P2).
 */
export class StdioProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** Set when the child is gone; read by whoever explains the disconnect. */
  exit: ChildExit | undefined;
  /** Set when this side gave up on the child's output (line too long). */
  fatal: string | undefined;

  private child: ChildProcess | undefined;
  private pending: Buffer = Buffer.alloc(0);
  private closed: Promise<void> | undefined;
  private stopping: Promise<void> | undefined;

  constructor(private readonly launch: StdioLaunch) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioProcessTransport already started');
    return new Promise((resolveStart, rejectStart) => {
      const child = spawn(this.launch.command, this.launch.args, {
        env: this.launch.env,
        cwd: this.launch.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
        // The child leads a new process group, so stop can reach its children too.
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      this.closed = new Promise((done) => child.once('close', () => done()));
      child.once('spawn', () => {
        if (child.pid) trackGroup(child.pid);
        resolveStart();
      });
      child.once('error', (error) => {
        rejectStart(error);
        this.onerror?.(error);
      });
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
      });
      child.once('close', () => this.onclose?.());
      child.stdin?.on('error', () => {}); // EPIPE after the child died; the close event reports it
      child.stdout?.on('data', (chunk: Buffer) => this.onStdout(chunk));
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.launch.onStderr(chunk));
    });
  }

  private onStdout(chunk: Buffer): void {
    if (this.fatal) return;
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (let newline = data.indexOf(10); newline !== -1; newline = data.indexOf(10)) {
      const line = data.toString('utf8', 0, newline).replace(/\r$/, '');
      data = data.subarray(newline + 1);
      if (newline > this.launch.maxLineBytes) return this.giveUp();
      if (line.trim()) this.deliver(line);
      if (this.fatal) return;
    }
    this.pending = data;
    if (this.pending.length > this.launch.maxLineBytes) this.giveUp();
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      this.launch.onNoise(`[stdout, not JSON-RPC, ignored] ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
      return;
    }
    this.onmessage?.(message);
  }

  private giveUp(): void {
    this.fatal = `stdout line over ${formatBytes(this.launch.maxLineBytes)}; stopped reading this server`;
    this.pending = Buffer.alloc(0);
    this.onerror?.(new Error(this.fatal));
    void this.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable) throw new Error('the server process is not running');
    if (!stdin.write(serializeMessage(message))) await new Promise<void>((done) => stdin.once('drain', done));
  }

  /** Stop the child and its whole process group; resolves when nothing of it is left running. */
  close(): Promise<void> {
    this.stopping ??= this.stopGroup();
    return this.stopping;
  }

  private async stopGroup(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    try {
      await this.stopSteps(child);
    } finally {
      if (!this.groupAlive(child)) liveGroups.delete(child.pid);
    }
  }

  private async stopSteps(child: ChildProcess): Promise<void> {
    const grace = this.launch.stopGraceMs;
    child.stdin?.end();
    await within(this.closed!, grace);
    if (!this.groupAlive(child)) return;
    this.signal(child, 'SIGTERM');
    await Promise.all([within(this.closed!, grace), this.groupGone(child, grace)]);
    if (this.groupAlive(child)) this.signal(child, 'SIGKILL');
    await this.groupGone(child, grace);
    await within(this.closed!, grace);
  }

  private signal(child: ChildProcess, signal: NodeJS.Signals): void {
    try {
      if (process.platform === 'win32') child.kill(signal);
      else process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  }

  private groupAlive(child: ChildProcess): boolean {
    if (process.platform === 'win32') return child.exitCode === null && child.signalCode === null;
    try {
      process.kill(-child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  }

  private async groupGone(child: ChildProcess, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.groupAlive(child) && Date.now() < deadline) await sleep(25);
  }
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));
const within = (promise: Promise<void>, ms: number) => Promise.race([promise, sleep(ms)]);

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
