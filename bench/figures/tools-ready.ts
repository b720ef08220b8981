import { loginShellPath, McpManager } from '../lib/shipped';
import { judge, type Figure } from '../lib/figure';
import { closeAll, everything, quietLogger, rawConnect, stdioConfig, tempHome, type RawSession } from '../lib/servers';
import { interleave, summarize } from '../lib/stats';

const SERVERS = 10;

/** Raw SDK: connect every server in parallel and list each one's tools; stop when the last list arrives. */
async function rawRun(session: RawSession): Promise<{ ms: number; tools: number }> {
  const started = performance.now();
  const results = await Promise.allSettled(
    Array.from({ length: SERVERS }, async () => {
      const client = await rawConnect(everything(), session);
      const { tools } = await client.listTools();
      return { client, tools };
    }),
  );
  const ms = performance.now() - started;
  const ok = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  await closeAll(ok.map((r) => r.client));
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw new Error(`raw SDK: a server failed to connect: ${String(failed.reason)}`);
  return { ms, tools: ok.reduce((n, r) => n + r.tools.length, 0) };
}

/**
 * Switchboard: a fresh manager (empty cache) applies 10 configs; stop when the manager tells its
 * listeners (what the UI hears, coalesced by 15 ms) that every server is connected with its tools.
 */
async function switchboardRun(): Promise<{ ms: number; tools: number }> {
  const { home, cleanup } = await tempHome('ready');
  const manager = new McpManager({ home, logger: quietLogger });
  try {
    const configs = Array.from({ length: SERVERS }, (_, i) => stdioConfig(`everything-${i}`, everything(), home));
    const started = performance.now();
    const ready = new Promise<number>((resolve, reject) => {
      manager.onChange(() => {
        const statuses = manager.statuses();
        if (statuses.length === SERVERS && statuses.every((s) => s.state.kind === 'connected')) resolve(performance.now());
        const bad = statuses.find((s) => s.state.kind === 'error' || s.state.kind === 'backing_off');
        if (bad) reject(new Error(`Switchboard: server ${bad.name} is ${bad.state.kind}: ${bad.state.reason}`));
      });
    });
    await manager.apply(configs);
    const ms = (await ready) - started;
    return { ms, tools: manager.tools().length };
  } finally {
    await manager.stop();
    await cleanup();
  }
}

export async function toolsReady(runs: number): Promise<Figure[]> {
  // The login-shell PATH is read once per app launch and cached; pay it before timing.
  await loginShellPath();
  const counts = { raw: 0, rawAgain: 0, rawShared: 0, switchboard: 0 };
  const times = await interleave(runs, {
    raw: async () => {
      const r = await rawRun('own');
      counts.raw = r.tools;
      return r.ms;
    },
    // The A/A side: the very same work as `raw`, so its ratio to `raw` is what noise alone reads.
    rawAgain: async () => {
      const r = await rawRun('own');
      counts.rawAgain = r.tools;
      return r.ms;
    },
    rawShared: async () => {
      const r = await rawRun('shared');
      counts.rawShared = r.tools;
      return r.ms;
    },
    switchboard: async () => {
      const r = await switchboardRun();
      counts.switchboard = r.tools;
      return r.ms;
    },
  });
  if (counts.raw !== counts.switchboard || counts.rawAgain !== counts.switchboard || counts.rawShared !== counts.switchboard) {
    throw new Error(`tools ready: raw SDK saw ${counts.raw}/${counts.rawAgain}/${counts.rawShared} tools but Switchboard ${counts.switchboard}`);
  }
  const switchboard = { stats: summarize(times.switchboard), work: `McpManager.apply(${SERVERS} configs) until onChange reports all connected (${counts.switchboard} tools)` };
  const rawWork = `Client.connect + listTools on ${SERVERS} servers in parallel (${counts.raw} tools)`;
  const runByRun = (side: number[]) => {
    const ratios = side.map((ms, i) => ms / times.raw[i]!);
    return `${summarize(ratios).median.toFixed(3)} [${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}]`;
  };
  return [
    judge({
      id: 'tools-ready-10',
      title: `tools ready, ${SERVERS} stdio servers (server-everything)`,
      unit: 'ms',
      target: { kind: 'ratio', max: 1.05 },
      raw: { stats: summarize(times.raw), work: `${rawWork}; each server in its own session (setsid), as Switchboard starts them` },
      switchboard,
      note: `run by run, Switchboard ÷ raw: ${runByRun(times.switchboard)}; the A/A row below is the same reading for two identical raw sides`,
    }),
    judge({
      id: 'tools-ready-10-aa',
      title: `tools ready, ${SERVERS} servers, A/A: the raw SDK against itself`,
      unit: 'ms',
      target: { kind: 'report' },
      raw: { stats: summarize(times.raw), work: `${rawWork}; own sessions` },
      switchboard: { stats: summarize(times.rawAgain), work: `the same raw SDK work again, as a fourth side of the same rotation (${counts.rawAgain} tools)` },
      note: `run by run, second raw ÷ raw: ${runByRun(times.rawAgain)}: how far two identical sides read apart here`,
    }),
    judge({
      id: 'tools-ready-10-shared-session',
      title: `tools ready, ${SERVERS} servers, raw SDK transport as shipped`,
      unit: 'ms',
      target: { kind: 'report' },
      raw: { stats: summarize(times.rawShared), work: `${rawWork}; StdioClientTransport as shipped (servers share the bench's session)` },
      switchboard,
      note: 'on a loaded machine the shipped transport is slower: its servers share one autogroup CPU slice (see README)',
    }),
  ];
}
