import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { fixture } from './helpers';

// Main-process memory: the SDK's HTTP and SSE transports (~1.2 MB resident) load with the first remote server (transport-errors.ts).
it('a core with stdio servers only and no secrets never loads the SDK HTTP and SSE transports, shell-env, keytar or node:http', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'loaded-modules-child.ts'), fixture('toolbox.mjs')], { timeout: 60_000 });
  const { states, modules, builtins } = JSON.parse(stdout) as { states: string[]; modules: string[]; builtins: string[] };
  expect(states).toEqual(['connected']);
  // The log sees the SDK modules that did load.
  expect(modules.some((url) => url.endsWith('/@modelcontextprotocol/sdk/dist/esm/client/index.js'))).toBe(true);
  expect(modules.filter((url) => /\/client\/(sse|streamableHttp)\.js$|\/eventsource\//.test(url))).toEqual([]);
  // Reading the login shell's PATH (shell-env, execa under it: ~2.9 MB resident) happens in a short-lived child.
  expect(modules.filter((url) => /\/node_modules\/(shell-env|execa)\//.test(url))).toEqual([]);
  // The keychain's native addon loads with the first secret asked for (start-up time).
  expect(modules.filter((url) => /\/node_modules\/keytar\//.test(url))).toEqual([]);
  // On Node 24, node:http brings undici, http2, tls and zlib (~12 MB resident): it loads with the first sign-in or sandbox proxy.
  expect(builtins).toContain('node:child_process');
  expect(builtins.filter((name) => /^node:(http|http2|tls|zlib|internal\/deps\/undici\/undici)$/.test(name))).toEqual([]);
});
