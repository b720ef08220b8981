import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MAIN_OUTPUT } from '../../main-output.config';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

/**
 * Compile entry files for Node the way electron-vite builds out/main (Vite SSR build, dependencies
 * left external) into outDir as <name>.mjs. outDir must sit inside the repo, so the output's bare
 * imports resolve to node_modules.
 */
export async function buildNodeBundle(inputs: Record<string, string>, outDir: string): Promise<void> {
  // Loaded only to build: a process that imports the built code must not carry Vite in its memory.
  const { build } = await import('vite');
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      // Chunks sit next to the entries, so code that finds the repo from its own file's place works from any of them.
      rollupOptions: { input: inputs, output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs', ...MAIN_OUTPUT } },
    },
  });
}
