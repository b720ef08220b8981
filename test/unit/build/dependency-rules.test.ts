/**
 * The layer lint (.dependency-cruiser.cjs, run by `npm run lint`) against tiny source trees that break
 * each rule: a lint that cannot fail would let the next cycle in unnoticed.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const depcruise = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Writes `files` (path → source) into a fresh tree and returns the rules depcruise says they break. */
async function violations(files: Record<string, string>): Promise<string[]> {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-layers-'));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', verbatimModuleSyntax: true } }));
  for (const [path, source] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), source);
  }
  const run = promisify(execFile)(process.execPath, [depcruise, '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json', 'src-main'], { cwd: dir, maxBuffer: 16 << 20 });
  // depcruise exits non-zero when it finds errors; its report is on stdout either way.
  const { stdout } = await run.catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as { summary: { violations: { rule: { name: string } }[] } };
  return report.summary.violations.map((v) => v.rule.name).sort();
}

describe('the layer lint', () => {
  it('fails on an import cycle, type-only imports included', async () => {
    expect(
      await violations({
        'src-main/core/tools/a.ts': "import type { B } from './b';\nexport type A = { b?: B };\n",
        'src-main/core/tools/b.ts': "import type { A } from './a';\nexport type B = { a?: A };\n",
      }),
    ).toEqual(['no-circular']);
  });

  it('fails when mcp/ imports the call path above it, or tools/ the chat', async () => {
    expect(
      await violations({
        'src-main/core/mcp/server.ts': "import { caller } from '../tools/caller';\nexport const server = caller;\n",
        'src-main/core/tools/caller.ts': "import { chat } from '../chat/chat';\nexport const caller = chat;\n",
        'src-main/core/chat/chat.ts': 'export const chat = 1;\n',
      }),
    ).toEqual(['mcp-below-the-call-path', 'tools-below-chat']);
  });

  it('fails when the core imports a shell', async () => {
    expect(
      await violations({
        'src-main/core/thing.ts': "import { host } from '../host/web-host';\nexport const thing = host;\n",
        'src-main/host/web-host.ts': 'export const host = 1;\n',
      }),
    ).toEqual(['core-runs-in-plain-node']);
  });

  it('passes a tree that keeps the layers', async () => {
    expect(
      await violations({
        'src-main/core/chat/chat.ts': "import { caller } from '../tools/caller';\nexport const chat = caller;\n",
        'src-main/core/tools/caller.ts': "import type { CallOutcome } from '../mcp/call-vocabulary';\nexport const caller: CallOutcome | undefined = undefined;\n",
        'src-main/core/mcp/call-vocabulary.ts': 'export type CallOutcome = { kind: string };\n',
      }),
    ).toEqual([]);
  });
});
