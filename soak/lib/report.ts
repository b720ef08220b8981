import type { ChaosFigures } from './chaos-soak';
import type { SoakReport } from './soak';

/**
 * Growth that counts as a leak, measured with every server connected and nothing in flight, after a
 * warm-up round and after the rounds, each time after a full collection that also returns V8's pooled
 * pages (memory.ts): without that, RSS on Node 24 grew by however far the young generation had grown
 * (up to 128 MB) whatever was kept. RSS is what is compared, since only RSS sees a native leak (a
 * buffer, handle or pipe held in C++); the JS heap and external memory are shown beside it to say whose
 * memory grew. The allocator still moves RSS by a few MB whatever happens; 3,000 calls leaking even
 * 6 KB each would fail it. Descriptors are counted once the count has
 * held still longer than an idle pooled HTTP connection lives: the connections a burst of concurrent
 * calls opens close by themselves, so only what is kept counts (a one-time cost sits in the baseline).
 */
export const LIMITS = { rssGrowthMb: 16, fdGrowth: 2 };

export interface Verdict {
  check: string;
  pass: boolean;
  detail: string;
}

/** "; changed: socket +3, pipe -1", or nothing when no kind moved. */
const byKind = (grew: Record<string, number>) => {
  const moved = Object.entries(grew).map(([kind, n]) => `${kind} ${n > 0 ? '+' : ''}${n}`);
  return moved.length ? `; changed: ${moved.join(', ')}` : '';
};

/** "JS heap 112.1 → 114.4 MB, external 7.7 → 7.7 MB": what JavaScript keeps alive, beside RSS. */
const jsMemory = ({ start, end }: ChaosFigures['memory']) =>
  `JS heap ${start.heapUsedMb.toFixed(1)} → ${end.heapUsedMb.toFixed(1)} MB, external (buffers) ${start.externalMb.toFixed(1)} → ${end.externalMb.toFixed(1)} MB`;

const ms = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(0)} ms`);

/** Every rule of the soak, each with what was measured. */
export function verdicts(report: SoakReport): Verdict[] {
  const { chaos, powerCut, fuzz } = report;
  const healthy = chaos.byRole.healthy ?? { calls: 0, failed: 0 };
  const unrecovered = chaos.kills.filter((k) => k.recoveredMs === undefined);
  const undropped = chaos.drops.filter((d) => d.recoveredMs === undefined);
  const recovery = chaos.kills.map((k) => k.recoveredMs ?? Infinity);
  const fuzzFailures = fuzz.filter((f) => f.failure);
  return [
    { check: 'calls to healthy servers all succeeded', pass: healthy.calls > 0 && healthy.failed === 0, detail: `${healthy.calls - healthy.failed} of ${healthy.calls}` },
    {
      check: 'every other failure clear and in time',
      pass: chaos.problemCount === 0,
      detail: chaos.problemCount === 0 ? `each named its server, was an AppFailure, ended within its timeout` : `${chaos.problemCount} broke a rule; first: ${chaos.problems[0]}`,
    },
    {
      check: 'killed servers came back by backoff',
      pass: chaos.kills.length > 0 && unrecovered.length === 0,
      detail: unrecovered.length ? `${unrecovered.length} did not: ${unrecovered.map((k) => `${k.server} (${k.stuck})`).join('; ')}` : `${chaos.kills.length} kills, back in ${ms(Math.min(...recovery))}–${ms(Math.max(...recovery))}`,
    },
    {
      check: 'HTTP session drops recovered',
      pass: undropped.length === 0,
      detail: chaos.drops.length === 0 ? 'no drops in this profile' : undropped.length ? `${undropped.length} did not: ${undropped.map((d) => d.stuck).join('; ')}` : `${chaos.drops.length} drops, a call worked again after ${chaos.drops.map((d) => ms(d.recoveredMs)).join(', ')}`,
    },
    {
      check: 'HTTP sessions ended on stop',
      pass: chaos.httpSessionsLeft === 0,
      detail: chaos.servers.sessionDrop.length === 0 ? 'no streamable HTTP server in this profile' : `${chaos.httpSessionsLeft} left open on the server after Switchboard stopped`,
    },
    {
      check: 'no memory growth',
      pass: chaos.rss.endMb - chaos.rss.startMb <= LIMITS.rssGrowthMb,
      detail: `RSS ${chaos.rss.startMb.toFixed(1)} → ${chaos.rss.endMb.toFixed(1)} MB with every server connected, before and after, each after a full GC that returns V8's pooled pages (limit +${LIMITS.rssGrowthMb}); ${jsMemory(chaos.memory)}; trend over the rounds ${chaos.rss.slopeMbPerRound.toFixed(3)} MB/round`,
    },
    {
      check: 'no descriptor growth',
      pass: chaos.fds.end - chaos.fds.start <= LIMITS.fdGrowth,
      detail: `fds ${chaos.fds.start} → ${chaos.fds.end} with every server connected and the count still, after a warm-up round and after the rounds (limit +${LIMITS.fdGrowth})${byKind(chaos.fds.grewByKind)}; trend over the rounds ${chaos.fds.slopePerRound.toFixed(3)}/round`,
    },
    {
      check: 'no server process left after stop',
      pass: chaos.orphans.length === 0,
      detail: `${chaos.orphans.length} left of ${chaos.sessionsStarted} server sessions started${chaos.zombies ? ` (${chaos.zombies} exited, unreaped by PID 1)` : ''}`,
    },
    {
      check: 'tool-cache and conversation files intact',
      pass: chaos.files.corrupted.length === 0,
      detail: chaos.files.corrupted.length ? chaos.files.corrupted.slice(0, 3).join('; ') : `${chaos.files.toolCache} cache files, ${chaos.files.conversations} conversations parsed`,
    },
    {
      check: 'power cuts: every file old or new',
      pass: powerCut.cuts > 0 && powerCut.corrupted.length === 0,
      detail: powerCut.corrupted.length ? powerCut.corrupted.slice(0, 3).join('; ') : `${powerCut.filesChecked} files checked after ${powerCut.cuts} SIGKILLs`,
    },
    {
      check: 'fuzz: no crash, no hang, exact errors',
      pass: fuzzFailures.length === 0,
      detail: fuzzFailures.length ? fuzzFailures.map((f) => `${f.target}: ${f.failure}`).join('; ') : `${fuzz.reduce((n, f) => n + f.runs, 0)} inputs over ${fuzz.length} parsers`,
    },
  ];
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** The soak's figures as markdown tables (the README carries the latest full run's). */
export function renderReport(report: SoakReport): string {
  const { chaos, powerCut, fuzz } = report;
  const corrupted = chaos.files.corrupted.length + powerCut.corrupted.length;
  const figures = table(
    ['figure', 'value'],
    [
      ['servers', `${chaos.servers.stdio} stdio + ${chaos.servers.http} HTTP (${chaos.servers.victims.length} killed in turn, ${chaos.servers.sessionDrop.length} dropping sessions, ${chaos.servers.fault.length} broken on purpose)`],
      ['rounds × calls', `${chaos.rounds} × ${chaos.calls / Math.max(1, chaos.rounds)} = ${chaos.calls} calls, ${chaos.failed} failed`],
      ['calls by server role (failed)', Object.entries(chaos.byRole).map(([role, r]) => `${role} ${r.calls} (${r.failed})`).join(', ')],
      ['latency of succeeded calls', `p50 ${ms(chaos.latencyMs.p50)}, p99 ${ms(chaos.latencyMs.p99)} (healthy servers: p50 ${ms(chaos.latencyMs.healthyP50)}, p99 ${ms(chaos.latencyMs.healthyP99)})`],
      ['slowest failure', ms(chaos.slowestFailureMs)],
      ['SIGKILLs / session drops', `${chaos.kills.length} / ${chaos.drops.length}`],
      ['RSS start → end (all connected, idle)', `${chaos.rss.startMb.toFixed(1)} → ${chaos.rss.endMb.toFixed(1)} MB (slope over the rounds ${chaos.rss.slopeMbPerRound.toFixed(3)} MB/round, later half ${chaos.rss.laterSlopeMbPerRound.toFixed(3)})`],
      ['JS memory start → end (same moments)', jsMemory(chaos.memory)],
      ['fds start → end (all connected, idle)', `${chaos.fds.start} → ${chaos.fds.end}, ${chaos.fds.endUnsettled} the moment all were back (slope over the rounds ${chaos.fds.slopePerRound.toFixed(3)}/round, later half ${chaos.fds.laterSlopePerRound.toFixed(3)})`],
      ['HTTP sessions left open after stop', `${chaos.httpSessionsLeft}`],
      ['orphans after stop', `${chaos.orphans.length}`],
      ['files corrupted', `${corrupted} (${chaos.files.toolCache + chaos.files.conversations} soak files, ${powerCut.filesChecked} after ${powerCut.cuts} power cuts; ${powerCut.strayTempFiles} temp files left behind)`],
      ['fuzz inputs', `${fuzz.reduce((n, f) => n + f.runs, 0)} (${fuzz.filter((f) => f.failure).length} parsers failed)`],
      ['time', `calls ${report.seconds.chaos.toFixed(0)} s, power cuts ${report.seconds.powerCut.toFixed(0)} s, fuzz ${report.seconds.fuzz.toFixed(0)} s`],
    ],
  );
  const causes = Object.entries(chaos.failuresByCause).sort((a, b) => b[1] - a[1]);
  const causeTable = causes.length ? table(['failures by cause (server role: error, names and numbers taken out)', 'calls'], causes.map(([cause, n]) => [cause, String(n)])) : 'No call failed.';
  const fuzzTable = table(
    ['fuzzed parser', 'inputs', 'slowest', 'result'],
    fuzz.map((f) => [f.target, String(f.runs), `${f.slowestMs.toFixed(1)} ms`, f.failure ? `FAIL: ${f.failure}` : 'ok']),
  );
  const verdictTable = table(['check', 'verdict', 'measured'], verdicts(report).map((v) => [v.check, v.pass ? 'PASS' : 'FAIL', v.detail]));
  return `${figures}\n\n${causeTable}\n\n${fuzzTable}\n\n${verdictTable}\n`;
}
