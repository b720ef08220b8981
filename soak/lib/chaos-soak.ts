import { ConversationStore, conversationsDir } from '../../src-main/core/chat/conversation-store';
import type { McpManager } from '../../src-main/core/mcp/mcp-manager';
import { manager as newManager, tempHome } from '../../test/integration/mcp/helpers';
import { causeOf, planRound, runRound, type CallOutcome } from './calls';
import { Chaos, type ChaosPlan, type DropRecord, type KillRecord } from './chaos';
import { checkFiles, withTurn, type CoreFiles } from './core-files';
import { Fleet, type FleetShape } from './fleet';
import { settledMemory, type MemoryMb } from './memory';
import { openFdCount, openFdKinds, SpawnedSessions } from './processes';
import { countBy, laterHalf, percentile, slope } from './series';

export interface ChaosSoakOptions {
  shape: FleetShape;
  rounds: number;
  callsPerRound: number;
  /** Pause between rounds, so the run spans many kills. */
  pauseMs: number;
  chaos: ChaosPlan;
  /** Kill the next victim at the start of this round (the short soak), as well as or instead of the timer. */
  killAtRound?: number;
  conversations: number;
  /**
   * How long the descriptor count must hold still before a settled measure is taken: longer than an
   * idle pooled HTTP connection lives (Node's server keep-alive is 5 s), so the connections the last
   * burst of calls opened, which close by themselves, are not counted as kept.
   */
  quietMs: number;
}

export interface RoundSample extends Measure {
  round: number;
  ms: number;
}

export interface ChaosFigures {
  servers: { stdio: number; http: number; victims: string[]; healthy: string[]; sessionDrop: string[]; fault: string[] };
  rounds: number;
  calls: number;
  succeeded: number;
  failed: number;
  byRole: Record<string, { calls: number; failed: number }>;
  /** Failed calls by cause (names and numbers taken out) and the role of the server called. */
  failuresByCause: Record<string, number>;
  latencyMs: { p50?: number; p99?: number; max?: number; healthyP50?: number; healthyP99?: number };
  slowestFailureMs?: number;
  /** Outcomes that broke a rule: a healthy call failed, an unclear or late error, a wrong answer. */
  problems: string[];
  problemCount: number;
  kills: KillRecord[];
  skippedKills: string[];
  drops: DropRecord[];
  samples: RoundSample[];
  /** Start and end: every server connected, nothing in flight, after collectGarbage() (memory.ts). Slopes: over the rounds' samples. */
  rss: { startMb: number; endMb: number; slopeMbPerRound: number; laterSlopeMbPerRound: number };
  /** Every memoryUsage() field at the two settled measures. */
  memory: { start: MemoryMb; end: MemoryMb };
  /** endUnsettled: the count the moment every server was back, before it held still (what the check used to read). */
  fds: { start: number; end: number; endUnsettled: number; slopePerRound: number; laterSlopePerRound: number; grewByKind: Record<string, number> };
  sessionsStarted: number;
  /** Sessions the streamable HTTP server still held after Switchboard stopped (it should have ended its own with DELETE). */
  httpSessionsLeft: number;
  orphans: { pid: number; sid: number; state: string }[];
  zombies: number;
  files: CoreFiles;
}

interface Measure extends MemoryMb {
  fds: number;
}

interface SettledMeasure extends Measure {
  fdKinds: Record<string, number>;
  /** The count when the wait began, before it held still. */
  fdsBeforeStill: number;
}

function measure(): Measure {
  return { ...settledMemory(), fds: openFdCount() };
}
const memoryOf = ({ rssMb, heapTotalMb, heapUsedMb, externalMb, arrayBuffersMb }: MemoryMb): MemoryMb => ({ rssMb, heapTotalMb, heapUsedMb, externalMb, arrayBuffersMb });
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/** Memory and descriptors once the descriptor count has held still for `quietMs` (at most 30 s of waiting). */
async function settledMeasure(quietMs: number): Promise<SettledMeasure> {
  const deadline = Date.now() + 30_000;
  const fdsBeforeStill = openFdCount();
  let last = fdsBeforeStill;
  let stillSince = Date.now();
  while (Date.now() - stillSince < quietMs && Date.now() < deadline) {
    await sleep(250);
    const now = openFdCount();
    if (now !== last) [last, stillSince] = [now, Date.now()];
  }
  return { ...measure(), fdKinds: openFdKinds(), fdsBeforeStill };
}

/** Kinds of descriptor whose count changed between two settled measures ("socket": +3). */
function kindGrowth(start: Record<string, number>, end: Record<string, number>): Record<string, number> {
  const kinds = new Set([...Object.keys(start), ...Object.keys(end)]);
  return Object.fromEntries([...kinds].map((k) => [k, (end[k] ?? 0) - (start[k] ?? 0)] as const).filter(([, d]) => d !== 0));
}

/**
 * The core under chaos: McpManager with the fleet, `rounds` rounds of concurrent calls while
 * victims are SIGKILLed and the HTTP server restarts; memory and descriptors after each round;
 * then stop, the process table (orphans) and every file the core wrote (parsed).
 */
export async function runChaosSoak(options: ChaosSoakOptions): Promise<ChaosFigures> {
  const { home, cleanup } = await tempHome();
  const fleet = await Fleet.start(options.shape);
  const sessions = new SpawnedSessions();
  const manager = newManager(home);
  const offChange = manager.onChange(() => sessions.sample());
  const outcomes: CallOutcome[] = [];
  const samples: RoundSample[] = [];
  /** Memory and descriptors with every server connected and nothing in flight: after a warm-up round, and after the rounds. */
  const settled: SettledMeasure[] = [];
  let chaos: Chaos | undefined;
  let httpSessionsLeft: number;
  try {
    await manager.apply(fleet.configs);
    const running = [...fleet.named('healthy'), ...fleet.named('victim'), ...fleet.named('session-drop')];
    await waitConnected(manager, running);
    // Warm-up: one round first, so what the first calls set up once and keep (the loop's io_uring, pooled
    // connections, modules loaded on first use) is in the baseline, not counted as growth; a leak grows on.
    await runRound(manager, planRound(fleet.servers, options.callsPerRound, 0));
    await waitConnected(manager, running);
    sessions.sample();
    settled.push(await settledMeasure(options.quietMs));
    const store = new ConversationStore(conversationsDir(home));
    const conversations = Array.from({ length: options.conversations }, (_, i) => store.create(`soak conversation ${i}`, Date.now()));
    chaos = new Chaos(manager, fleet, options.chaos);
    chaos.start();
    for (let round = 0; round < options.rounds; round++) {
      if (round === options.killAtRound) chaos.killOne();
      const started = performance.now();
      const results = await runRound(manager, planRound(fleet.servers, options.callsPerRound, round));
      const ms = performance.now() - started;
      outcomes.push(...results);
      sessions.sample();
      // The chat saves its conversation after each turn: these files are written while servers die.
      const conversation = conversations[round % conversations.length];
      if (conversation) await store.save(withTurn(conversation, round, results));
      samples.push({ round, ms, ...measure() });
      if (round < options.rounds - 1) await sleep(options.pauseMs);
    }
    await chaos.stop();
    // Every server back, as at the start: what is still held now was leaked.
    await waitConnected(manager, running);
    settled.push(await settledMeasure(options.quietMs));
  } finally {
    await chaos?.stop();
    offChange();
    await manager.stop();
    httpSessionsLeft = await fleet.openHttpSessions(2000);
    await fleet.stopHttp();
  }
  try {
    const leftovers = sessions.leftovers();
    const files = await checkFiles(home, fleet, options.conversations);
    return { ...figures(options, fleet, outcomes, samples, settled, chaos!, sessions.count, leftovers, files), httpSessionsLeft };
  } finally {
    await cleanup();
  }
}

async function waitConnected(manager: McpManager, names: string[]): Promise<void> {
  await manager.settled(60_000);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const down = names.filter((n) => manager.status(n)?.state.kind !== 'connected');
    if (down.length === 0) return;
    if (Date.now() > deadline) {
      throw new Error(`servers did not connect: ${down.map((n) => `${n} (${JSON.stringify(manager.status(n)?.state)})`).join(', ')}`);
    }
    await sleep(100);
  }
}

function figures(
  options: ChaosSoakOptions,
  fleet: Fleet,
  outcomes: CallOutcome[],
  samples: RoundSample[],
  settled: SettledMeasure[],
  chaos: Chaos,
  sessionsStarted: number,
  leftovers: ReturnType<SpawnedSessions['leftovers']>,
  files: ChaosFigures['files'],
): Omit<ChaosFigures, 'httpSessionsLeft'> {
  const failed = outcomes.filter((o) => !o.ok);
  const problems = outcomes.flatMap((o) => (o.problem ? [o.problem] : []));
  const okMs = outcomes.filter((o) => o.ok).map((o) => o.ms);
  const healthyMs = outcomes.filter((o) => o.ok && o.spec.role === 'healthy').map((o) => o.ms);
  const roles = countBy(outcomes, (o) => o.spec.role);
  const failedRoles = countBy(failed, (o) => o.spec.role);
  const rss = samples.map((s) => s.rssMb);
  const fds = samples.map((s) => s.fds);
  return {
    servers: {
      stdio: fleet.configs.filter((c) => c.kind === 'stdio').length,
      http: fleet.configs.filter((c) => c.kind === 'remote').length,
      victims: fleet.named('victim'),
      healthy: fleet.named('healthy'),
      sessionDrop: fleet.named('session-drop'),
      fault: fleet.named('fault'),
    },
    rounds: options.rounds,
    calls: outcomes.length,
    succeeded: outcomes.length - failed.length,
    failed: failed.length,
    byRole: Object.fromEntries(Object.entries(roles).map(([role, calls]) => [role, { calls, failed: failedRoles[role] ?? 0 }])),
    failuresByCause: countBy(failed, (o) => `${o.spec.role}: ${causeOf(o.error ?? '')}`),
    latencyMs: {
      p50: percentile(okMs, 50),
      p99: percentile(okMs, 99),
      max: percentile(okMs, 100),
      healthyP50: percentile(healthyMs, 50),
      healthyP99: percentile(healthyMs, 99),
    },
    slowestFailureMs: percentile(failed.filter((o) => o.spec.role !== 'fault').map((o) => o.ms), 100),
    problems: problems.slice(0, 30),
    problemCount: problems.length,
    kills: chaos.kills,
    skippedKills: chaos.skipped,
    drops: chaos.drops,
    samples,
    rss: { startMb: settled[0]!.rssMb, endMb: settled[1]!.rssMb, slopeMbPerRound: slope(rss), laterSlopeMbPerRound: slope(laterHalf(rss)) },
    memory: { start: memoryOf(settled[0]!), end: memoryOf(settled[1]!) },
    fds: { start: settled[0]!.fds, end: settled[1]!.fds, slopePerRound: slope(fds), laterSlopePerRound: slope(laterHalf(fds)), endUnsettled: settled[1]!.fdsBeforeStill, grewByKind: kindGrowth(settled[0]!.fdKinds, settled[1]!.fdKinds) },
    sessionsStarted,
    orphans: leftovers.orphans.map((o) => ({ pid: o.pid, sid: o.sid, state: o.state })),
    zombies: leftovers.zombies.length,
    files,
  };
}
