// `npm run bench`: every figure, Switchboard against the raw MCP SDK in the same run.
// Prints a table and writes bench/results/latest.json. Method: bench/README.md.
// Options: --only <id-prefix,...> runs only the matching figures (ids as in the JSON) and writes
// bench/results/partial.json instead.
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { catalogBuild } from './figures/catalog-build';
import { bigResultMapping } from './figures/big-result';
import { bigResultEndToEnd } from './figures/big-result-e2e';
import { chatScroll } from './figures/chat-scroll';
import { mainProcessRss } from './figures/rss';
import { toolCalls } from './figures/tool-calls';
import { toolSearchQuality, toolTokens } from './figures/tool-budget';
import { startToUsable } from './figures/start-to-usable';
import { toolsReady } from './figures/tools-ready';
import { sandboxCost } from './figures/sandbox';
import { warmStart } from './figures/warm-start';
import type { Figure, Target } from './lib/figure';
import { renderTable } from './lib/report';
import { childrenGone, gc, REPO } from './lib/servers';

interface Bench {
  /** Id prefix of the figures it produces, for --only. */
  id: string;
  title: string;
  unit: string;
  target: Target;
  run: () => Promise<Figure | Figure[]>;
}

const benches: Bench[] = [
  { id: 'tools-ready', title: 'tools ready, 10 stdio servers', unit: 'ms', target: { kind: 'ratio', max: 1.05 }, run: () => toolsReady(7) },
  { id: 'sandbox', title: 'tools ready, 10 stdio servers, sandboxed ÷ unsandboxed', unit: 'ms', target: { kind: 'ratio', max: 1.1 }, run: () => sandboxCost(7) },
  {
    id: 'warm-start',
    title: 'warm start: catalog from cache',
    unit: 'ms',
    target: { kind: 'absolute', max: 50, unit: 'ms' },
    run: () => warmStart([1, 10, 50], (n) => (n === 50 ? 3 : 5), (n) => (n === 50 ? 1 : 3)),
  },
  { id: 'start-usable', title: 'start to usable in web mode', unit: 'ms', target: { kind: 'absolute', max: 1000, unit: 'ms' }, run: () => startToUsable([10, 50], 3) },
  { id: 'calls', title: '1,000 sequential tools/call', unit: 'ms', target: { kind: 'ratio', max: 1.1 }, run: () => toolCalls(30) },
  { id: 'tool-tokens', title: 'tool tokens per turn, 2,000 tools', unit: 'tokens', target: { kind: 'ratio', max: 0.1 }, run: () => toolTokens() },
  { id: 'search', title: 'tool search quality', unit: '', target: { kind: 'minimum', min: 0.95, unit: '' }, run: () => toolSearchQuality() },
  { id: 'catalog-build', title: 'catalog build, 2,000 tools', unit: 'ms', target: { kind: 'absolute', max: 50, unit: 'ms' }, run: () => catalogBuild(15) },
  { id: 'big-result-map', title: '10 MB text result mapped', unit: 'ms', target: { kind: 'absolute', max: 20, unit: 'ms' }, run: () => bigResultMapping(7) },
  { id: 'big-result-e2e', title: '10 MB text result end to end', unit: 'ms', target: { kind: 'report' }, run: () => bigResultEndToEnd(3) },
  { id: 'rss', title: 'main-process RSS, 10 servers', unit: 'MB', target: { kind: 'report' }, run: () => mainProcessRss(3) },
  { id: 'chat', title: 'chat of 5,000 messages in Chromium', unit: 'ms', target: { kind: 'absolute', max: 16, unit: 'ms (p95 frame)' }, run: () => chatScroll(3) },
];

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO }).toString().trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src-main', 'src-preload', 'src-renderer'], { cwd: REPO }).toString().trim();
    return dirty ? `${commit} (+ uncommitted changes in src-*)` : commit;
  } catch {
    return 'unknown';
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const only = values.only?.split(',').map((s) => s.trim()).filter(Boolean);
  gc(); // fails early, with the fix, when --expose-gc is missing
  const startedAt = new Date();
  const loadBefore = loadavg();
  const figures: Figure[] = [];
  for (const bench of benches) {
    if (only && !only.some((prefix) => bench.id.startsWith(prefix))) continue;
    process.stderr.write(`bench: ${bench.title} …\n`);
    const began = performance.now();
    try {
      const out = await bench.run();
      figures.push(...(Array.isArray(out) ? out : [out]));
    } catch (error) {
      // A figure that could not run is reported as such, never left out or filled in.
      const message = error instanceof Error ? error.message : String(error);
      figures.push({ id: bench.id, title: bench.title, unit: bench.unit, target: bench.target, verdict: 'n/a', note: `n/a (failed to run): ${message}` });
    }
    process.stderr.write(`bench: ${bench.title} done in ${((performance.now() - began) / 1000).toFixed(1)} s\n`);
  }
  const left = await childrenGone(20_000);
  const result = {
    startedAt: startedAt.toISOString(),
    durationS: Math.round((Date.now() - startedAt.getTime()) / 1000),
    machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', loadAverageBefore: loadBefore, loadAverageAfter: loadavg() },
    commit: gitCommit(),
    figures,
  };
  const table = renderTable(figures);
  process.stdout.write(`\nSwitchboard vs the raw MCP SDK — ${result.startedAt}, ${result.machine.cpus} cores, load ${loadBefore.map((l) => l.toFixed(1)).join('/')} → ${result.machine.loadAverageAfter.map((l) => l.toFixed(1)).join('/')}, commit ${result.commit}\n\n${table}`);
  await mkdir(join(REPO, 'bench/results'), { recursive: true });
  // A partial run (--only) never replaces the full run's file.
  const file = only ? 'bench/results/partial.json' : 'bench/results/latest.json';
  await writeFile(join(REPO, file), `${JSON.stringify({ ...result, ...(only ? { only } : {}) }, null, 2)}\n`);
  process.stdout.write(`\nwritten: ${file} (${result.durationS} s)\n`);
  if (left > 0) {
    process.stderr.write(`bench: ${left} child processes were still running at the end\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
