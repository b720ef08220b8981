import fc from 'fast-check';
import { FUZZ_TARGETS, type FuzzTarget } from './targets';

export interface FuzzFigure {
  target: string;
  runs: number;
  /** The smallest failing input fast-check found, and what was wrong with the answer. */
  failure?: string;
  /** The slowest single input (a parser that backtracks badly shows here first). */
  slowestMs: number;
}

/** An input slower than this counts as a hang (generous: a loaded 2-core machine stalls a process for a second at times). */
export const HANG_MS = 2000;

/** Run every target `runs` times from a fixed seed, so any failure replays. */
export async function runFuzz(runs: number, seed = 13, targets: FuzzTarget<unknown>[] = FUZZ_TARGETS): Promise<FuzzFigure[]> {
  const figures: FuzzFigure[] = [];
  for (const target of targets) {
    let slowestMs = 0;
    const property = fc.asyncProperty(target.inputs, async (input) => {
      const started = performance.now();
      const verdict = await target.judge(input);
      const ms = performance.now() - started;
      slowestMs = Math.max(slowestMs, ms);
      if (verdict !== undefined) throw new Error(verdict);
      if (ms > HANG_MS) throw new Error(`took ${Math.round(ms)} ms (over ${HANG_MS} ms)`);
    });
    const details = await fc.check(property, { numRuns: runs, seed });
    figures.push({ target: target.name, runs: details.numRuns, ...(details.failed ? { failure: describeFailure(details) } : {}), slowestMs });
  }
  return figures;
}

function describeFailure(details: { errorInstance?: unknown; counterexample?: unknown }): string {
  const error = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `${error.slice(0, 400)} — input ${JSON.stringify(details.counterexample)?.slice(0, 300)}`;
}
