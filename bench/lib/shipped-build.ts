// Builds what the bench runs of Switchboard the way the app ships: Vite, as electron-vite builds
// out/main (SSR build, dependencies external). Outputs in bench/.shipped/ (git-ignored): core.mjs,
// everything main runs (shipped-entry.ts); ws-client.mjs, the renderer's WebSocket client alone,
// for the process that plays the browser; rss-probe.mjs, the memory figure's child process, which loads
// main-core.mjs (the core alone, as the Electron shell's main process has it) and web-host.mjs (what web mode adds).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildNodeBundle } from './node-bundle';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const outDir = resolve(here, '../.shipped');

// Built once per bench run: probes forked from the run inherit the flag and load the same files.
const BUILT_FLAG = 'SWITCHBOARD_BENCH_SHIPPED';
if (process.env[BUILT_FLAG] !== outDir) {
  await buildShipped();
  process.env[BUILT_FLAG] = outDir;
}

/** The URL of one built output, for a dynamic import. */
export function shippedModule(name: 'core' | 'ws-client' | 'rss-probe' | 'main-core' | 'web-host'): string {
  return pathToFileURL(join(outDir, `${name}.mjs`)).href;
}

async function buildShipped(): Promise<void> {
  await buildNodeBundle(
    {
      core: join(here, 'shipped-entry.ts'),
      'ws-client': join(root, 'src-renderer/lib/api/ws-client.ts'),
      // Run with plain node: tsx's loader would keep every module's source it transformed, more for the side that loads more.
      'rss-probe': join(root, 'bench/probes/rss-probe.ts'),
      'main-core': join(here, 'shipped-core-entry.ts'),
      'web-host': join(here, 'shipped-web-entry.ts'),
    },
    outDir,
  );
}
