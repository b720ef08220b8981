import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { MAIN_OUTPUT } from './main-output.config';

// Three builds for one app. Main has several entries: the Electron shell (index), the
// launcher that finds the Electron binary (launch), web mode (web) and the CLI (cli);
// only index and launch touch 'electron'.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src-main/index.ts'),
          launch: resolve('src-main/electron/launch.ts'),
          web: resolve('src-main/web.ts'),
          cli: resolve('src-main/cli.ts'),
        },
        output: MAIN_OUTPUT,
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require only 'electron': bundle zod and the contract into it.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve('src-preload/index.ts') },
        // Sandboxed preloads must be CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src-renderer',
    plugins: [svelte({ configFile: resolve('svelte.config.js') })],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
