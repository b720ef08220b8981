// Two shipped builds side by side in one process, for a change too small to see across runs on a loaded
// machine: each build's core calls echo on its own server, against the raw SDK client on that same server
// process, in alternating blocks. Prints each build's added main-process CPU per call (core − raw).
// Build a tree's bench/.shipped/ with `node --import tsx bench/probes/build-shipped.ts`; a copy kept outside
// a tree needs a node_modules link beside it. Run both orders (A B, then B A): on a loaded machine an
// A/A run read the second side up to ~3 µs cheaper.
//   ROUNDS=40 node --expose-gc --import tsx bench/probes/call-ab.ts <A>/core.mjs <B>/core.mjs
import { pathToFileURL } from 'node:url';
import { startCoreWith } from '../lib/running-core';
import { everything, quietLogger } from '../lib/servers';
import type * as Entry from '../lib/shipped-entry';

const [a, b] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: call-ab.ts <core.mjs A> <core.mjs B>');
const N = 400;
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const args = { message: 'hello' };

async function side(bundle: string, label: string) {
  const shipped = (await import(pathToFileURL(bundle).href)) as typeof Entry;
  const running = await startCoreWith(label, { everything: everything() }, (home) => new shipped.SwitchboardCore({ home, vault: new shipped.MemoryVault(), opener: { open: async () => {} }, logger: quietLogger }));
  const path = new shipped.CoreCallPath(running.core);
  const echo = running.core.mcp.tools('everything').find((t) => t.name === 'echo')!.qualifiedName;
  const sdk = await path.sdkClient('everything');
  return { running, core: () => path.call(echo, args), raw: () => sdk.callTool({ name: 'echo', arguments: args }) };
}

const cpu = async (f: () => Promise<unknown>) => {
  const c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) await f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / N;
};
const sides = [await side(a, 'ab-a'), await side(b, 'ab-b')];
for (const s of sides) for (let i = 0; i < 3; i++) { await cpu(s.core); await cpu(s.raw); }
const added: number[][] = [[], []];
for (let r = 0; r < ROUNDS; r++) {
  for (const i of r % 2 ? [1, 0] : [0, 1]) {
    const s = sides[i]!;
    let core: number, raw: number;
    if (r % 4 < 2) {
      core = await cpu(s.core);
      raw = await cpu(s.raw);
    } else {
      raw = await cpu(s.raw);
      core = await cpu(s.core);
    }
    added[i]!.push(core - raw);
  }
}
const med = (v: number[]) => [...v].sort((x, y) => x - y)[v.length >> 1]!;
const pairs = added[0]!.map((x, i) => added[1]![i]! - x);
console.log(`added CPU µs/call (core − raw, same server): A ${med(added[0]!).toFixed(1)}  B ${med(added[1]!).toFixed(1)}  B − A median of rounds ${med(pairs).toFixed(1)} (${ROUNDS} rounds of ${N} calls)`);
for (const s of sides) await s.running.stop();
process.exit(0);
