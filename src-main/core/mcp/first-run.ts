/**
 * A stdio server's start, as a person wants it when `npx`/`uvx` first downloads a package: the
 * connect timeout counts only time without progress (no output, no CPU, no I/O in its process
 * group), up to a cap; the package manager's own progress lines become the state's detail; and a
 * package runner's first start that still timed out is tried once more (its downloads are kept).
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { StdioServerConfig } from '../config/server-config';
import type { Failure } from './failure-reason';

/** However busy it looks, a start ends after this many connect timeouts. */
export const START_CAP_TIMEOUTS = 10;
/** Longest progress detail shown in the state, in characters. */
const DETAIL_CHARS = 160;

/** Commands that fetch a package before running it: their first start is slow and says little. */
const PACKAGE_RUNNERS = new Set(['npx', 'uvx', 'bunx', 'pnpx']);
const RUNNER_SUBCOMMANDS: Record<string, string[]> = { npm: ['exec', 'x'], pnpm: ['dlx', 'exec'], yarn: ['dlx'], uv: ['run', 'tool'], bun: ['x'] };

export function isPackageRunner(config: Pick<StdioServerConfig, 'command' | 'args'>): boolean {
  const command = basename(config.command).replace(/\.(cmd|exe)$/i, '').toLowerCase();
  return PACKAGE_RUNNERS.has(command) || (RUNNER_SUBCOMMANDS[command]?.includes(config.args[0] ?? '') ?? false);
}

/**
 * npm prints nothing while it downloads unless it writes to a terminal; at log level "http" it
 * names each fetch on stderr, which is the progress a person wants to see. The person's own
 * setting wins.
 */
export function withInstallProgress(config: StdioServerConfig): StdioServerConfig {
  if (!isPackageRunner(config) || !/^(npx|npm)/i.test(basename(config.command))) return config;
  if (Object.keys(config.env).some((key) => key.toLowerCase() === 'npm_config_loglevel')) return config;
  return { ...config, env: { ...config.env, npm_config_loglevel: 'http' } };
}

export interface StartWatchOptions {
  /** The configured connect timeout: the longest stretch without progress. */
  timeoutMs: number;
  /** The process (group leader) once spawned. */
  pid: () => number | undefined;
  /** A new stderr line while starting: the state's detail. */
  onProgress: (line: string) => void;
  /** How often the process group may be sampled; a quarter of the timeout, at most 1 s. */
  probeMs?: number;
  /** Reads the group's work so far (default: /proc, `groupWork`). */
  sample?: (pgid: number) => Promise<number | undefined>;
}

/**
 * One start attempt's allowance. Give `requestOptions` to the initialize request and every stderr
 * chunk to `output`; `dispose` when the attempt ended either way.
 */
export class StartWatch {
  private readonly controller = new AbortController();
  private lastActivity = Date.now();
  private lastSample: number | undefined;
  private readonly timer: NodeJS.Timeout;
  private partial = '';
  private probing = false;
  /** Once the attempt ended, stderr is the running server's log, never again the state's detail. */
  private ended = false;

  constructor(private readonly options: StartWatchOptions) {
    const probeMs = options.probeMs ?? Math.min(1000, Math.max(50, options.timeoutMs / 4));
    this.timer = setInterval(() => void this.probe(), probeMs);
    this.timer.unref();
  }

  /** The SDK's own timeout is the cap; idleness ends the request through the signal. */
  get requestOptions(): { timeout: number; signal: AbortSignal } {
    return { timeout: this.options.timeoutMs * START_CAP_TIMEOUTS, signal: this.controller.signal };
  }

  output(chunk: string): void {
    this.lastActivity = Date.now();
    const lines = (this.partial + chunk).split(/\r?\n|\r/);
    this.partial = lines.pop() ?? '';
    const last = lines.map((line) => line.trim()).filter(Boolean).at(-1);
    if (last && !this.ended) this.options.onProgress(last.length > DETAIL_CHARS ? `${last.slice(0, DETAIL_CHARS)}…` : last);
  }

  dispose(): void {
    this.ended = true;
    clearInterval(this.timer);
  }

  private async probe(): Promise<void> {
    // Reading /proc costs the main process a file read per process on the machine: only a start that has
    // been quiet for half its timeout is sampled, so a server that answers in time is never read at all.
    // On a loaded machine one reading may outlast the interval: never two at once.
    if (this.probing || Date.now() - this.lastActivity < this.options.timeoutMs / 2) return;
    this.probing = true;
    const pid = this.options.pid();
    const sample = pid === undefined ? undefined : await (this.options.sample ?? groupWork)(pid).finally(() => (this.probing = false));
    if (pid === undefined) this.probing = false;
    // The first reading counts the work done since the process started (a slow reading on a loaded machine must not look idle).
    if (sample !== undefined && sample > (this.lastSample ?? 0)) this.lastActivity = Date.now();
    if (sample !== undefined) this.lastSample = sample;
    if (Date.now() - this.lastActivity >= this.options.timeoutMs && !this.controller.signal.aborted) {
      // The same error the SDK's own timeout gives, so the reason reads "timed out after 30 s during initialize".
      this.controller.abort(new McpError(ErrorCode.RequestTimeout, 'Request timed out: no progress', { timeout: this.options.timeoutMs }));
      this.dispose();
    }
  }
}

/**
 * CPU ticks plus bytes read and written by every process in the group `pgid` (Linux /proc; a
 * socket read counts, so a download is work). Undefined where /proc is not there: output alone counts.
 */
export async function groupWork(pgid: number): Promise<number | undefined> {
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return undefined;
  }
  let total = 0;
  await Promise.all(
    entries
      .filter((entry) => /^\d+$/.test(entry))
      .map(async (pid) => {
        const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
        // Fields after the command (which may hold spaces), from field 3: state ppid pgrp … utime(14) stime(15).
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (Number(fields[2]) !== pgid) return;
        total += Number(fields[11]) + Number(fields[12]);
        const io = await readFile(`/proc/${pid}/io`, 'utf8').catch(() => '');
        for (const match of io.matchAll(/^(rchar|wchar): (\d+)$/gm)) total += Number(match[2]);
      }),
  );
  return total;
}

/** One automatic second start per connection (until the person reconnects): only a package runner's first start that timed out. */
export class FirstRunRetry {
  private used = false;

  /** True when this failure earns the retry; `note` tells the log why. */
  shouldRetry(config: StdioServerConfig, failure: Failure, recovering: boolean, note: (line: string) => void): boolean {
    if (this.used || recovering || !failure.reason.startsWith('timed out') || !isPackageRunner(config)) return false;
    this.used = true;
    note(`[switchboard] the first start of ${config.command} ${failure.reason}; starting it once more (what it downloaded is kept)`);
    return true;
  }

  reset(): void {
    this.used = false;
  }
}
