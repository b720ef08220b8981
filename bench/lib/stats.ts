/** Median, min and max of a set of timed runs; the median is what the verdict reads. */
export interface Stats {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function summarize(values: number[]): Stats {
  if (values.length === 0) throw new Error('summarize: no values (a benchmark ran zero times)');
  if (values.some((v) => !Number.isFinite(v))) throw new Error(`summarize: a value is not a finite number (${values.join(', ')})`);
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, runs: sorted.length };
}

/** Wall-clock milliseconds of one async piece of work. */
export async function timeIt(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

/**
 * Run `runs` rounds; each round runs every side once, in an order that alternates round by round,
 * so slow drift of a shared machine (2 cores, other work) lands on both sides alike.
 */
export async function interleave<K extends string>(runs: number, sides: Record<K, () => Promise<number>>): Promise<Record<K, number[]>> {
  const names = Object.keys(sides) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let round = 0; round < runs; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) out[name].push(await sides[name]());
  }
  return out;
}

/**
 * Like interleave, but each run is cut into `blocks` equal blocks and the sides take turns block by
 * block (order alternating), so a load spike from elsewhere on the machine hits every side alike.
 * Each side's run time is the sum of its blocks.
 */
export async function interleaveBlocks<K extends string>(
  runs: number,
  blocks: number,
  sides: Record<K, () => Promise<number>>,
): Promise<Record<K, number[]>> {
  const names = Object.keys(sides) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let run = 0; run < runs; run++) {
    const sums = Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>;
    for (let block = 0; block < blocks; block++) {
      const order = (run * blocks + block) % 2 === 0 ? names : [...names].reverse();
      for (const name of order) sums[name] += await sides[name]();
    }
    for (const name of names) out[name].push(sums[name]);
  }
  return out;
}
