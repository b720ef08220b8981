import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerView } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { SANDBOX_DENIAL_META } from '../../../src-main/core/sandbox/sandbox-denial';
import type { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { startCoreOn } from '../config/core-steps';
import { tempHome } from './helpers';

// SECURITY X1: a refusal a tool call meets while the sandboxed server keeps running reaches that call's
// failure and the server's row, with the same Allow; a server's honest failure stays its own.
/** Reads, writes or connects where it is told; a failure is its result's error text and a stderr line. */
const PROBE = resolve('test/fixtures/bundles/probe/server/index.js');

let home: string;
let person: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore | undefined;
const savedHome = process.env.SWITCHBOARD_HOME;
beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  person = join(home, 'person');
  await mkdir(person, { recursive: true });
  process.env.SWITCHBOARD_HOME = join(home, 'data');
});
afterEach(async () => {
  await core?.stop();
  core = undefined;
  if (savedHome === undefined) delete process.env.SWITCHBOARD_HOME;
  else process.env.SWITCHBOARD_HOME = savedHome;
  await cleanup();
});

async function startProbe(): Promise<SwitchboardCore> {
  core = await startCoreOn(join(home, 'data'), { probe: { command: 'node', args: [PROBE], env: { HOME: person }, sandboxEnabled: true } });
  await expect.poll(() => row()?.state, { timeout: 30_000 }).toBe('connected');
  return core;
}
const row = (): ServerView | undefined => core?.snapshot().servers.find((s) => s.name === 'probe');
const probe = async (op: string, target: string) => {
  const result = await core!.mcp.callServerTool('probe', 'probe', { op, target });
  return { error: result.isError === true, texts: result.content.map((c) => (c as { text: string }).text), denial: result._meta?.[SANDBOX_DENIAL_META] };
};

describe('a sandbox refusal during a tool call', () => {
  it('says "blocked by the sandbox: read ~/.netrc" in the call\'s failure and on the row; Allow grants it and the read then works', async () => {
    await writeFile(join(person, '.netrc'), 'machine example.com password hunter2');
    await startProbe();
    const refused = await probe('read', join(person, '.netrc'));
    expect(refused).toEqual({ error: true, texts: ['blocked by the sandbox: read ~/.netrc', expect.stringContaining('ENOENT')], denial: 'blocked by the sandbox: read ~/.netrc' });
    // The server keeps running; its row shows the refusal with Allow.
    expect(row()).toMatchObject({ state: 'connected', sandbox: { denial: { kind: 'read', text: 'blocked by the sandbox: read ~/.netrc' } } });

    expect(await dispatch(core!.handlers, 'allowSandboxDenial', { name: 'probe' })).toEqual({ ok: true, value: null });
    const written = JSON.parse(await readFile(join(home, 'data', 'servers.json'), 'utf8')) as { servers: Record<string, unknown> };
    expect(written.servers.probe).toMatchObject({ sandbox: { filesystem: { allowRead: [join(person, '.netrc')] } } });
    await expect.poll(() => row()?.sandbox?.grants, { timeout: 30_000 }).toContainEqual({ path: join(person, '.netrc'), access: 'read', from: 'setting' });
    await expect.poll(() => row()?.state, { timeout: 30_000 }).toBe('connected');
    expect(row()?.sandbox?.denial).toBeUndefined();
    expect(await probe('read', join(person, '.netrc'))).toEqual({ error: false, texts: ['machine example.com password hunter2'], denial: undefined });
  }, 120_000);

  it('names a refused write and a refused connection the same way', async () => {
    await startProbe();
    expect((await probe('write', join(person, '.bashrc'))).denial).toBe('blocked by the sandbox: write ~/.bashrc');
    expect(row()?.sandbox?.denial).toEqual({ kind: 'write', text: 'blocked by the sandbox: write ~/.bashrc' });
    const dialed = await probe('connect', '127.0.0.1:9');
    expect(dialed.denial).toMatch(/^blocked by the sandbox: connect to 127\.0\.0\.1:9$/);
    expect(row()?.sandbox?.denial).toEqual({ kind: 'connect', text: dialed.denial });
  }, 120_000);

  it('leaves a server\'s honest failure its own: a file that does not exist anywhere is not a refusal', async () => {
    await startProbe();
    const missing = await probe('read', join(person, 'no-such-file'));
    expect(missing).toEqual({ error: true, texts: [expect.stringContaining('ENOENT')], denial: undefined });
    expect(row()?.sandbox?.denial).toBeUndefined();
  }, 120_000);
});
