// The power-cut writer is started dozens of times; compiled once per run (as the bench compiles the
// core), each start is plain Node instead of tsx transforming the core again.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNodeBundle } from '../../bench/lib/node-bundle';

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Compile the writer into a folder of its own under soak/.built (inside the repo, so its imports
 * resolve to node_modules; one per run, so `npm test` and `npm run soak` side by side never share one).
 */
export async function buildPowerCutWriter(): Promise<{ path: string; remove: () => Promise<void> }> {
  const outDir = resolve(here, '../.built', `${process.pid}-${randomBytes(4).toString('hex')}`);
  await buildNodeBundle({ 'power-cut-writer': join(here, '../probes/power-cut-writer.ts') }, outDir);
  return { path: join(outDir, 'power-cut-writer.mjs'), remove: () => rm(outDir, { recursive: true, force: true }) };
}
