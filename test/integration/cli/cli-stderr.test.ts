import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { root, runCli } from './cli-runner';

vi.setConfig({ testTimeout: 180_000 });

const fixture = (name: string) => join(root, 'test/fixtures/servers', name);
let home: string;

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchboard-cli-stderr-'));
  const servers = {
    crash: { command: 'node', args: [fixture('crash-on-start.mjs')] },
    trace: { command: 'node', args: [fixture('crash-with-trace.mjs')] },
    silent: { command: 'node', args: [fixture('crash-silent.mjs')] },
  };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
});
afterAll(() => rm(home, { recursive: true, force: true }));

describe('a server that dies starting: its stderr where the fix points', () => {
  it('call prints the stderr lines right after the sentence that promises them', async () => {
    const { code, stderr } = await runCli(home, ['call', 'crash', 'anything']);
    expect(code).toBe(1);
    expect(stderr).toContain('its last stderr lines are below — often a missing env variable or argument\n  | fatal: API_KEY is not set\n');
  });

  it('status keeps the last lines of a long stderr, the partial last line included', async () => {
    const { stdout } = await runCli(home, ['status', '--json']);
    const trace = (JSON.parse(stdout) as { servers: { name: string; stderr?: string[] }[] }).servers.find((s) => s.name === 'trace');
    expect(trace?.stderr).toEqual(['banner line 26', 'banner line 27', 'banner line 28', 'banner line 29', 'banner line 30', 'Error: cannot open database at /nowhere/db.sqlite', '    at open (db.js:1:1)', '    at main (index.js:2:2)']);
  });

  it('a crash with nothing on stderr promises nothing below and says how to see its output', async () => {
    const { stdout } = await runCli(home, ['status']);
    const block = stdout.slice(stdout.indexOf('○ silent'));
    expect(block).toContain('exited with code 3 during initialize\n  fix (terminal): it crashed while starting without a word on stderr; run it by hand to see what it says: node ');
    expect(block.split('\n  source:')[0]).not.toContain('below');
  });
});
