// The power-cut writer is started dozens of times; compiled once with Vite (as bench/lib/shipped-build.ts
// compiles the core), each start is plain Node instead of tsx transforming the core again.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
/** Inside the repo, so the bundle's bare imports (zod, jsonc-parser, the SDK) resolve to node_modules. */
const outDir = resolve(here, '../.built');

let built: Promise<string> | undefined;

/** The compiled writer's path; built on first use in this process. */
export function powerCutWriter(): Promise<string> {
  built ??= buildWriter();
  return built;
}

async function buildWriter(): Promise<string> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      rollupOptions: { input: { 'power-cut-writer': join(here, '../probes/power-cut-writer.ts') }, output: { format: 'es', entryFileNames: '[name].mjs' } },
    },
  });
  return join(outDir, 'power-cut-writer.mjs');
}
