// The shipped build of what the bench measures (see shipped-entry.ts). Built on first import into
// bench/.shipped/ (git-ignored) with Vite's SSR build, deps external, as out/main is built.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Entry from './shipped-entry';

const here = dirname(fileURLToPath(import.meta.url));
const outDir = resolve(here, '../.shipped');

// Built once per bench run: probes forked from the run inherit the flag and load the same files.
const BUILT_FLAG = 'SWITCHBOARD_BENCH_SHIPPED';
if (process.env[BUILT_FLAG] !== outDir) {
  await buildShipped();
  process.env[BUILT_FLAG] = outDir;
}

async function buildShipped(): Promise<void> {
  // Loaded only to build: a probe process that imports the built core must not carry Vite in its memory.
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    root: resolve(here, '../..'),
    build: {
      ssr: join(here, 'shipped-entry.ts'),
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'core.mjs' } },
    },
  });
}

const shipped = (await import(pathToFileURL(join(outDir, 'core.mjs')).href)) as typeof Entry;

export const {
  SwitchboardCore,
  MemoryVault,
  McpManager,
  loginShellPath,
  loadConfig,
  launchHash,
  ToolCache,
  mapCallResult,
  buildCatalog,
  managerToolRuntime,
  startWebHost,
  WS_PATH,
  isInvokeName,
  createWsApi,
} = shipped;
