/**
 * What the soak's memory measure settles (test/unit/soak/memory.test.ts): churns short-lived objects
 * until V8's young generation has grown, then prints RSS after a plain full collection and after
 * collectGarbage(), as JSON. Usage: node --expose-gc --import tsx soak/probes/young-generation.ts
 */
import { collectGarbage } from '../lib/memory';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const rssMb = () => process.memoryUsage().rss / (1024 * 1024);
let kept: unknown[] = [];
for (let round = 0; round < 30; round++) {
  const batch = Array.from({ length: 300_000 }, (_, i) => ({ i, text: `item ${i}` }));
  kept = batch.slice(0, 10);
}
gc();
const plainGcRssMb = rssMb();
collectGarbage();
process.stdout.write(`${JSON.stringify({ plainGcRssMb, settledRssMb: rssMb(), kept: kept.length })}\n`);
