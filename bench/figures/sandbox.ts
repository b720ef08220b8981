import { readdirSync, readFileSync } from 'node:fs';
import { judge, type Figure } from '../lib/figure';
import { loginShellPath, McpManager } from '../lib/shipped';
import { everything, gc, quietLogger, stdioConfig, tempHome } from '../lib/servers';
import { interleave, summarize } from '../lib/stats';

const SERVERS = 10;
const MB = 1024 * 1024;

/** Processes descending from this one whose command is bwrap: the sandbox's helpers, and their RSS. */
function sandboxHelpers(): { count: number; rssMb: number } {
  const parents = new Map<number, { ppid: number; comm: string; rssKb: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1] ?? '';
      parents.set(Number(entry), { ppid: Number(field('PPid')), comm: field('Name'), rssKb: Number(field('VmRSS') || 0) });
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid)?.ppid; p; p = parents.get(p)?.ppid) if (p === process.pid) return true;
    return false;
  };
  const helpers = [...parents].filter(([pid, info]) => info.comm === 'bwrap' && descends(pid));
  return { count: helpers.length, rssMb: helpers.reduce((sum, [, info]) => sum + info.rssKb, 0) / 1024 };
}

/** A fresh manager applies 10 server-everything configs; stop when every one is connected with its tools. */
async function ready(sandboxed: boolean, measure?: (manager: InstanceType<typeof McpManager>) => void): Promise<number> {
  const { home, cleanup } = await tempHome(sandboxed ? 'sandboxed' : 'open');
  const manager = new McpManager({ home, logger: quietLogger });
  try {
    const configs = Array.from({ length: SERVERS }, (_, i) => ({ ...stdioConfig(`everything-${i}`, everything(), home), sandboxEnabled: sandboxed }));
    const started = performance.now();
    const done = new Promise<number>((resolve, reject) => {
      manager.onChange(() => {
        const statuses = manager.statuses();
        if (statuses.length === SERVERS && statuses.every((s) => s.state.kind === 'connected')) resolve(performance.now());
        const bad = statuses.find((s) => s.state.kind === 'error' || s.state.kind === 'backing_off');
        if (bad) reject(new Error(`server ${bad.name} is ${bad.state.kind}: ${bad.state.reason}`));
      });
    });
    await manager.apply(configs);
    const ms = (await done) - started;
    measure?.(manager);
    return ms;
  } finally {
    await manager.stop();
    await cleanup();
  }
}

/**
 * SECURITY X1's cost: tools ready with 10 stdio servers in bubblewrap against the same 10 unsandboxed
 * (both Switchboard; the ratio is the sandbox's share), and the main process's RSS with them connected.
 */
export async function sandboxCost(runs: number): Promise<Figure[]> {
  await loginShellPath();
  const times = await interleave(runs, { open: () => ready(false), sandboxed: () => ready(true) });
  const rss = { open: [] as number[], sandboxed: [] as number[] };
  let helpers = { count: 0, rssMb: 0 };
  for (let i = 0; i < Math.max(2, Math.ceil(runs / 2)); i++) {
    for (const side of ['open', 'sandboxed'] as const) {
      await ready(side === 'sandboxed', () => {
        gc();
        rss[side].push(process.memoryUsage().rss / MB);
        if (side === 'sandboxed') helpers = sandboxHelpers();
      });
    }
  }
  return [
    judge({
      id: 'sandbox-tools-ready-10',
      title: `tools ready, ${SERVERS} stdio servers, sandboxed ÷ unsandboxed (bubblewrap)`,
      unit: 'ms',
      target: { kind: 'ratio', max: 1.1 },
      raw: { stats: summarize(times.open), work: `McpManager.apply(${SERVERS} server-everything configs), not sandboxed` },
      switchboard: { stats: summarize(times.sandboxed), work: `the same with sandboxEnabled: true (bwrap per server)` },
    }),
    judge({
      id: 'sandbox-rss-10',
      title: `main-process RSS with ${SERVERS} servers connected, sandboxed vs not`,
      unit: 'MB',
      target: { kind: 'report' },
      raw: { stats: summarize(rss.open), work: 'bench process RSS after gc, 10 unsandboxed servers connected' },
      switchboard: { stats: summarize(rss.sandboxed), work: 'the same, 10 sandboxed servers connected' },
      note: `helper processes (bwrap, outside the main process): ${helpers.count} with ${helpers.rssMb.toFixed(1)} MB RSS in all, for ${SERVERS} servers`,
    }),
  ];
}
