// The power-cut writer is started dozens of times; compiled once (as the bench compiles the core),
// each start is plain Node instead of tsx transforming the core again.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNodeBundle } from '../../bench/lib/node-bundle';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, '../.built');

let built: Promise<string> | undefined;

/** The compiled writer's path; built on first use in this process. */
export function powerCutWriter(): Promise<string> {
  built ??= buildNodeBundle({ 'power-cut-writer': join(here, '../probes/power-cut-writer.ts') }, outDir).then(() => join(outDir, 'power-cut-writer.mjs'));
  return built;
}
