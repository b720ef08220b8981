import { judge, type Figure } from '../lib/figure';
import { loginShellPath, McpManager } from '../lib/shipped';
import { everything, quietLogger, stdioConfig, tempHome } from '../lib/servers';
import { interleave, summarize } from '../lib/stats';
import { rssProbe } from './rss';

const SERVERS = 10;
const MB = 1024 * 1024;

/** A fresh manager applies 10 server-everything configs; stop when every one is connected with its tools. */
async function ready(sandboxed: boolean): Promise<number> {
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
    return (await done) - started;
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
  // RSS in probe processes of their own (as the RSS figure does): the bench's own process carries its peak from earlier figures.
  const rss = { open: [] as number[], sandboxed: [] as number[] };
  let helpers = { count: 0, rssMb: 0 };
  for (let i = 0; i < 2; i++) {
    const [open, sandboxed] = await Promise.all([rssProbe('switchboard'), rssProbe('switchboard-sandboxed')]);
    rss.open.push(open.steadyRss / MB);
    rss.sandboxed.push(sandboxed.steadyRss / MB);
    helpers = sandboxed.helpers ?? helpers;
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
      raw: { stats: summarize(rss.open), work: 'SwitchboardCore in a probe process, 10 unsandboxed servers connected, idle, after a full gc' },
      switchboard: { stats: summarize(rss.sandboxed), work: 'the same, 10 sandboxed servers connected (their filtering proxies are not opened: no allowedDomains)' },
      note: `helper processes (bwrap, outside the main process): ${helpers.count} with ${helpers.rssMb.toFixed(1)} MB RSS in all, for ${SERVERS} servers`,
    }),
  ];
}
