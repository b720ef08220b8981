import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import svelteConfig from './svelte.config.js';

const electronOnlyInShell = {
  paths: [{ name: 'electron', message: 'Only src-main/index.ts and src-main/electron/** may import electron; the core must run in plain Node.' }],
  patterns: [{ group: ['electron/*'], message: 'Only the Electron shell may import electron.' }],
};

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', '.cache/', 'test-results/', 'bench/results/', 'bench/scratch/', 'bench/.shipped/', 'soak/.built/', 'soak/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { projectService: true, extraFileExtensions: ['.svelte'], parser: tseslint.parser, svelteConfig } },
  },
  // The seam: electron stays in the shell.
  {
    files: ['src-main/**/*.ts', 'src-renderer/**', 'src-preload/contract.ts'],
    ignores: ['src-main/index.ts', 'src-main/electron/**'],
    rules: { 'no-restricted-imports': ['error', electronOnlyInShell] },
  },
  // The SDK's HTTP and SSE transports load with the first remote server: remote-connect.ts alone imports them (transport-errors.ts).
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/core/mcp/remote-connect.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: ['sse', 'streamableHttp'].map((name) => ({ name: `@modelcontextprotocol/sdk/client/${name}.js`, allowTypeImports: true, message: 'Only remote-connect.ts loads the remote transports (main-process memory); import it with import() where a remote server connects.' })),
      }],
    },
  },
  // The renderer talks only to the Api; it never reaches into main.
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': ['error', {
        ...electronOnlyInShell,
        patterns: [...electronOnlyInShell.patterns, { group: ['**/src-main/**', 'node:*'], message: 'The renderer talks to main only through the Api.' }],
      }],
      // The contract's schema modules build zod schemas as they load: the renderer takes their types only, values from contract/values.
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{
          regex: 'src-preload/contract(/(?!(values|tools|tasks|servers-document)$)[\\w-]+)?$',
          allowTypeImports: true,
          message: 'Import values from src-preload/contract/values (zod stays out of the renderer bundle: start-up time).',
        }],
      }],
    },
  },
);
