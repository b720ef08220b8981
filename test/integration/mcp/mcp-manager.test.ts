import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { CallCancel } from '../../../src-main/core/mcp/call-cancel';
import type { ToolResult } from '../../../src-main/core/mcp/call-result';
import { launchHash } from '../../../src-main/core/mcp/launch-hash';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { callByName, EVERYTHING, FILESYSTEM, MEMORY, fixture, is, manager, SOURCE, stdio, tempHome, waitForState } from './helpers';
import { pidsWith } from '../../support/processes';

const toolbox = (name: string, extra: string[] = [], more = {}) => stdio(name, [fixture('toolbox.mjs'), '--name', name, ...extra], more);
const textOf = (r: ToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('');
/** Running, not a zombie: PID 1 in a container may never reap an orphan, which is gone all the same. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  return !/^\d+ \(.*\) Z/.test(stat);
};
const suffix = (server: string, tool: string) => createHash('sha256').update(`${server}\0${tool}`).digest('hex').slice(0, 8);

let home: string;
let cleanup: () => Promise<void>;
let m: McpManager | undefined;
beforeEach(async () => ({ home, cleanup } = await tempHome()));
afterEach(async () => {
  await m?.stop();
  m = undefined;
  await cleanup();
});

/** The noisy fixture's huge line is 5 MiB: a 4 MiB cap makes it one line too many. */
const HUGE_LINE_CAP = 4 * 1024 * 1024;


describe('connection states', () => {
  it('gives every failing server its own state and exact reason while the healthy ones connect', async () => {
    m = manager(home, { maxLineBytes: HUGE_LINE_CAP });
    await m.apply([
      stdio('everything', [EVERYTHING, 'stdio']),
      stdio('crash', [fixture('crash-on-start.mjs')]),
      stdio('hang', [fixture('hang-initialize.mjs')], { timeout: 1 }),
      stdio('missing', [], { command: 'no-such-command-xyz' }),
      stdio('nowhere', [fixture('toolbox.mjs')], { cwd: '/no/such/dir' }),
      stdio('huge', [fixture('noisy-stdout.mjs'), 'huge-on-start']),
      stdio('noisy', [fixture('noisy-stdout.mjs'), 'garbage']),
    ]);
    await m.settled(20_000);
    const states = Object.fromEntries(m.statuses().map((s) => [s.name, s.state]));
    expect(states.crash).toEqual({ kind: 'error', reason: 'exited with code 1 during initialize', stderrTail: ['fatal: API_KEY is not set'] });
    expect(states.hang).toEqual({ kind: 'error', reason: 'timed out after 1 s during initialize' });
    expect(states.missing).toEqual({ kind: 'error', reason: `command not found: no-such-command-xyz (PATH searched: ${process.env.PATH})` });
    expect(states.nowhere).toEqual({ kind: 'error', reason: 'working directory not found: /no/such/dir' });
    expect(states.huge).toEqual({ kind: 'error', reason: 'stdout line over 4 MiB; stopped reading this server' });
    expect(states.everything).toEqual({ kind: 'connected', reason: 'connected over stdio' });
    expect(states.noisy).toEqual({ kind: 'connected', reason: 'connected over stdio' });
    expect(m.logs('crash')).toEqual(['fatal: API_KEY is not set']);
    expect(m.logs('hang')).toEqual(['starting up, but never answering']);
    // The healthy servers work after their neighbours failed.
    expect(textOf(await callByName(m, 'everything__echo', { message: 'still here' }))).toBe('Echo: still here');
    expect(textOf(await callByName(m, 'noisy__hello', {}))).toBe('hello from a noisy server');
    expect(m.logs('noisy')).toEqual([
      '[stdout, not JSON-RPC, ignored] Debugger listening on ws://127.0.0.1:9229',
      '[stdout, not JSON-RPC, ignored] { this is not json',
      '[stdout, not JSON-RPC, ignored] another stray line after initialize',
      '[stdout, not JSON-RPC, ignored] noise between responses',
    ]);
  });

  it('finds a command that is not on the login PATH it was given on the login shell PATH read now, and launches with that PATH', async () => {
    const bin = join(home, 'new-bin');
    await mkdir(bin);
    await writeFile(join(bin, 'new-toolbox'), `#!/bin/sh\nexec node ${JSON.stringify(fixture('toolbox.mjs'))} --name fresh\n`, { mode: 0o755 });
    const own = process.env.PATH ?? '';
    m = manager(home, { loginPath: Object.assign(async () => own, { fresh: async () => `${bin}:${own}` }) });
    await m.apply([stdio('fresh', [], { command: 'new-toolbox' }), stdio('missing', [], { command: 'still-no-such-command' })]);
    await m.settled(20_000);
    expect(m.status('fresh')?.state).toEqual({ kind: 'connected', reason: 'connected over stdio' });
    expect(m.status('missing')?.state).toEqual({ kind: 'error', reason: `command not found: still-no-such-command (PATH searched: ${bin}:${own})` });
  });

  it('says a server timed out during initialize at once, while the process is still in its stop grace period', async () => {
    const tag = `grace-check-${process.pid}-${Date.now()}`;
    m = manager(home, { stopGraceMs: 5_000 });
    await m.apply([stdio('hang', [fixture('hang-initialize.mjs'), tag], { timeout: 1 })]);
    expect(await waitForState(m, 'hang', is('error'))).toEqual({ kind: 'error', reason: 'timed out after 1 s during initialize' });
    // The person heard before the process was gone (it ignores its stdin closing, so it lasts the 5 s grace).
    expect(await pidsWith(tag)).not.toEqual([]);
    await expect.poll(() => pidsWith(tag), { timeout: 20_000 }).toEqual([]);
  });

  it('stops a server whose start timed out before stop() returns, though it was still in its stop grace period', async () => {
    const tag = `stop-after-timeout-${process.pid}-${Date.now()}`;
    m = manager(home, { stopGraceMs: 5_000 });
    await m.apply([stdio('hang', [fixture('hang-initialize.mjs'), tag], { timeout: 1 })]);
    await waitForState(m, 'hang', is('error'));
    expect(await pidsWith(tag)).not.toEqual([]);
    await m.stop();
    // A quit that returns while the process lives would leave it running once the app is gone.
    expect(await pidsWith(tag)).toEqual([]);
  });

  it('ends only the offending server when a huge stdout line arrives mid-call', async () => {
    m = manager(home, { maxLineBytes: HUGE_LINE_CAP });
    await m.apply([stdio('noisy', [fixture('noisy-stdout.mjs')]), toolbox('calm')]);
    await m.settled(20_000);
    await expect(callByName(m, 'noisy__huge', {})).rejects.toThrow(
      'server "noisy" disconnected during the call to "huge" (stdout line over 4 MiB; stopped reading this server)',
    );
    expect(m.status('noisy')?.state).toEqual({ kind: 'error', reason: 'stdout line over 4 MiB; stopped reading this server' });
    expect(textOf(await callByName(m, 'calm__echo', { message: 'fine' }))).toBe('fine');
  });

  it('keeps only the last 200 stderr lines of a server that floods stderr', async () => {
    m = manager(home);
    await m.apply([toolbox('flood', ['--stderr-flood', '5000'])]);
    await waitForState(m, 'flood', is('connected'));
    // stderr is its own pipe: the flood's last line may land after initialize's answer.
    await expect.poll(() => m!.logs('flood').at(-1)).toBe('flood line 5000');
    const logs = m.logs('flood');
    expect(logs).toHaveLength(200);
    expect(logs[0]).toBe('flood line 4801');
    expect(logs[199]).toBe('flood line 5000');
  });

  it('shows a disabled server as disabled and never starts it', async () => {
    const pidFile = join(home, 'pids.json');
    m = manager(home);
    await m.apply([stdio('off', [fixture('stubborn.mjs'), pidFile], { enabled: false })]);
    expect(m.status('off')?.state).toEqual({ kind: 'disabled', reason: `disabled in ${SOURCE.path}` });
    await new Promise((done) => setTimeout(done, 300));
    expect(existsSync(pidFile)).toBe(false);
  });

  it('holds a project stdio server at trust_required without spawning it, and starts it once trusted', async () => {
    const pidFile = join(home, 'pids.json');
    const project = { path: '/work/project/.mcp.json', origin: 'project' as const, userWritten: false };
    const config = stdio('project', [fixture('stubborn.mjs'), pidFile], { source: project });
    m = manager(home);
    await m.apply([config]);
    await waitForState(m, 'project', is('trust_required'));
    expect(m.status('project')?.state.reason).toBe(
      'defined in /work/project/.mcp.json, which you did not write in Switchboard: approve "node" before it runs',
    );
    expect(existsSync(pidFile)).toBe(false);
    await m.stop();
    // The gate comes before expansion: an unapproved server's ${secret:…} is never read.
    const expanded: string[] = [];
    m = manager(home, { expand: async (c) => (expanded.push(c.name), { ok: true, config: c, warnings: [] }) });
    await m.apply([config]);
    await waitForState(m, 'project', is('trust_required'));
    expect(expanded).toEqual([]);
    await m.stop();
    let asked: unknown;
    m = manager(home, { trust: (c) => ((asked = c.name), true) });
    await m.apply([config]);
    await waitForState(m, 'project', is('connected'));
    expect(asked).toBe('project');
    expect(existsSync(pidFile)).toBe(true);
  });

  it('puts a server whose expansion fails in error with that message and does not launch it', async () => {
    const pidFile = join(home, 'pids.json');
    m = manager(home, {
      expand: async (c) => (c.name === 'needs-secret' ? { ok: false, message: 'secret API_KEY is not set' } : { ok: true, config: c, warnings: [] }),
    });
    await m.apply([stdio('needs-secret', [fixture('stubborn.mjs'), pidFile]), toolbox('plain')]);
    await waitForState(m, 'plain', is('connected'));
    expect(m.status('needs-secret')?.state).toEqual({ kind: 'error', reason: 'secret API_KEY is not set' });
    expect(existsSync(pidFile)).toBe(false);
  });

  it('gives a child only the allowlisted environment plus its own env', async () => {
    process.env.SWITCHBOARD_APP_ONLY = 'app-secret';
    m = manager(home);
    await m.apply([
      toolbox('a', [], { env: { A_TOKEN: 'a-secret', NODE_OPTIONS: '--inspect', ELECTRON_RUN_AS_NODE: '1' } }),
      toolbox('b', [], { env: { B_TOKEN: 'b-secret' } }),
    ]);
    await m.settled(20_000);
    const env = JSON.parse(textOf(await callByName(m, 'a__env', {}))) as Record<string, string>;
    delete process.env.SWITCHBOARD_APP_ONLY;
    expect(env.A_TOKEN).toBe('a-secret');
    expect(env.PATH).toBe(process.env.PATH);
    for (const absent of ['B_TOKEN', 'SWITCHBOARD_APP_ONLY', 'NODE_OPTIONS', 'ELECTRON_RUN_AS_NODE']) expect(env).not.toHaveProperty(absent);
  });
});

describe('stop and diff apply', () => {
  it('leaves no process of the group running after stop, even one that ignores SIGTERM and forked a child', async () => {
    const pidFile = join(home, 'pids.json');
    m = manager(home, { stopGraceMs: 300 });
    await m.apply([stdio('stubborn', [fixture('stubborn.mjs'), pidFile])]);
    await waitForState(m, 'stubborn', is('connected'));
    const { parent, child } = JSON.parse(await readFile(pidFile, 'utf8')) as { parent: number; child: number };
    expect(alive(parent) && alive(child)).toBe(true);
    await m.stop();
    m = undefined;
    expect(alive(parent)).toBe(false);
    expect(alive(child)).toBe(false);
  });

  it('restarts only servers whose launch fields changed, stops removed ones and starts added ones', async () => {
    m = manager(home);
    await m.apply([toolbox('same'), toolbox('changed'), toolbox('removed')]);
    await m.settled(20_000);
    const pid = async (name: string) => Number(textOf(await m!.callServerTool(name, 'pid', {})));
    const before = { same: await pid('same'), changed: await pid('changed'), removed: await pid('removed') };
    await m.apply([toolbox('same', [], { toolTimeout: 99 }), toolbox('changed', ['--stderr-flood', '1']), toolbox('added')]);
    await m.settled(20_000);
    expect(await pid('same')).toBe(before.same);
    expect(await pid('changed')).not.toBe(before.changed);
    expect(alive(before.changed)).toBe(false);
    expect(alive(before.removed)).toBe(false);
    expect(m.status('removed')).toBeUndefined();
    expect(m.status('added')?.state.kind).toBe('connected');
    expect(m.status('same')?.config.toolTimeout).toBe(99);
  });
});

describe('enable, disable and MCP off', () => {
  it('stops a server that gets disabled and starts it again when enabled, leaving its neighbour running', async () => {
    m = manager(home);
    await m.apply([toolbox('toggled'), toolbox('neighbour')]);
    await m.settled(20_000);
    const pid = Number(textOf(await callByName(m, 'toggled__pid', {})));
    const neighbourPid = textOf(await callByName(m, 'neighbour__pid', {}));
    await m.apply([toolbox('toggled', [], { enabled: false }), toolbox('neighbour')]);
    expect(await waitForState(m, 'toggled', is('disabled'))).toEqual({ kind: 'disabled', reason: `disabled in ${SOURCE.path}` });
    expect(alive(pid)).toBe(false);
    expect(m.tools('toggled')).toEqual([]);
    await m.apply([toolbox('toggled'), toolbox('neighbour')]);
    await waitForState(m, 'toggled', is('connected'));
    expect(textOf(await callByName(m, 'neighbour__pid', {}))).toBe(neighbourPid);
  });

  it('applies overlapping config changes one after the other, ending at the last one', async () => {
    m = manager(home);
    await Promise.all([m.apply([toolbox('x')]), m.apply([toolbox('x', ['--stderr-flood', '1'])]), m.apply([toolbox('y')])]);
    await m.settled(20_000);
    expect(m.statuses().map((s) => [s.name, s.state.kind])).toEqual([['y', 'connected']]);
  });

  it('switches every server off when MCP is off, and back on', async () => {
    m = manager(home);
    await m.apply([toolbox('a'), toolbox('b')], { mcpDisabled: true });
    await waitForState(m, 'a', is('disabled'));
    expect(m.statuses().map((s) => s.state)).toEqual([
      { kind: 'disabled', reason: `MCP is switched off in ${SOURCE.path}` },
      { kind: 'disabled', reason: `MCP is switched off in ${SOURCE.path}` },
    ]);
    await expect(m.reconnect('a')).rejects.toThrow('MCP is switched off; switch it on to connect servers');
    await m.apply([toolbox('a'), toolbox('b')]);
    await waitForState(m, 'a', is('connected'));
    await waitForState(m, 'b', is('connected'));
  });
});

describe('tool catalog', () => {
  it('serves tools from the cache at once, marked pending, and a call to a pending tool waits for its server', async () => {
    const config = toolbox('cached');
    m = manager(home);
    await m.apply([config]);
    await waitForState(m, 'cached', is('connected'));
    // stop() waits for the cache write under way: the file is whole and no temp file is left.
    await m.stop();
    expect(await readdir(join(home, 'cache', 'tools'))).toEqual([`${launchHash(config)}.json`]);

    m = manager(home);
    await m.apply([config]);
    expect(m.status('cached')?.state.kind).toBe('connecting');
    const pending = m.tools('cached');
    expect(pending.map((t) => t.qualifiedName)).toContain('cached__echo');
    expect(pending.every((t) => t.pending)).toBe(true);
    expect(textOf(await callByName(m, 'cached__echo', { message: 'waited' }))).toBe('waited');
    expect(m.tools('cached').every((t) => !t.pending)).toBe(true);
  });

  it('updates the catalog on tools/list_changed without restarting the server', async () => {
    m = manager(home);
    await m.apply([toolbox('live')]);
    await waitForState(m, 'live', is('connected'));
    const pid = textOf(await callByName(m, 'live__pid', {}));
    expect(m.tools('live').map((t) => t.qualifiedName)).not.toContain('live__extra-1');
    await callByName(m, 'live__add-tool', {});
    for (let i = 0; i < 100 && !m.tools('live').some((t) => t.qualifiedName === 'live__extra-1'); i++) await new Promise((d) => setTimeout(d, 20));
    expect(m.tools('live').map((t) => t.qualifiedName)).toContain('live__extra-1');
    expect(textOf(await callByName(m, 'live__extra-1', {}))).toBe('extra 1');
    expect(textOf(await callByName(m, 'live__pid', {}))).toBe(pid);
  });

  it('keeps colliding names apart with a deterministic suffix and reports the collision', async () => {
    m = manager(home);
    await m.apply([toolbox('a.b'), toolbox('a_b')]);
    await m.settled(20_000);
    const echoes = m.tools().filter((t) => t.name === 'echo');
    expect(echoes.map((t) => [t.server, t.qualifiedName])).toEqual([
      ['a.b', `a_b__echo_${suffix('a.b', 'echo')}`],
      ['a_b', `a_b__echo_${suffix('a_b', 'echo')}`],
    ]);
    expect(new Set(echoes.map((t) => t.server))).toEqual(new Set(['a.b', 'a_b']));
    expect(m.catalog().collisions.find((c) => c.name === 'a_b__echo')?.tools).toEqual([
      { server: 'a.b', tool: 'echo' },
      { server: 'a_b', tool: 'echo' },
    ]);
    const viaA = echoes.find((t) => t.server === 'a.b')!;
    expect(textOf(await callByName(m, viaA.qualifiedName, { message: 'from a.b' }))).toBe('from a.b');
  });

  it('persists per-tool enable/disable', async () => {
    m = manager(home);
    await m.apply([toolbox('box')]);
    await waitForState(m, 'box', is('connected'));
    await m.setToolEnabled('box__echo', false);
    expect(JSON.parse(await readFile(join(home, 'tool-settings.json'), 'utf8'))).toEqual({ disabled: { box: ['echo'] }, pinned: { servers: [], tools: {} }, budget: { threshold: 10_000, mode: 'auto' } });
    await m.stop();
    m = manager(home);
    await m.apply([toolbox('box')]);
    await waitForState(m, 'box', is('connected'));
    expect(m.tools('box').find((t) => t.qualifiedName === 'box__echo')?.enabled).toBe(false);
    expect(m.tools('box').find((t) => t.qualifiedName === 'box__pid')?.enabled).toBe(true);
    await expect(m.setToolEnabled('box__nope', true)).rejects.toThrow('no tool named "box__nope"');
  });

  it('patches object schemas without properties', async () => {
    m = manager(home);
    await m.apply([stdio('noisy', [fixture('noisy-stdout.mjs')])]);
    await waitForState(m, 'noisy', is('connected'));
    expect(m.tools('noisy').find((t) => t.name === 'hello')?.inputSchema).toEqual({ type: 'object', properties: {} });
  });
});

describe('tool calls', () => {
  it('cuts oversized text to head and tail with a marker', async () => {
    m = manager(home, { textCap: 1000 });
    await m.apply([toolbox('box')]);
    const result = await callByName(m, 'box__big-text', { n: 5000 });
    const text = textOf(result);
    expect(result.truncatedChars).toBe(4000);
    expect(text).toContain(
      '[… 4,000 of 5,000 characters cut from the middle of this result; narrow the request (a smaller range, a filter, a page) to see them …]',
    );
    expect(text.startsWith('0 1 2 3')).toBe(true);
  });

  it('maps a tool error as isError, not as a failed call', async () => {
    m = manager(home);
    await m.apply([toolbox('box')]);
    expect(await callByName(m, 'box__fail', {})).toEqual({ isError: true, content: [{ type: 'text', text: 'the tool failed' }], truncatedChars: 0 });
  });

  it('tells the server of a timed-out call exactly once, and of calls answered with an error not at all', async () => {
    m = manager(home);
    await m.apply([toolbox('box', [], { toolTimeout: 1 })]);
    await expect(callByName(m, 'box__nope-not-a-tool', {})).rejects.toThrow('no tool named "box__nope-not-a-tool"');
    expect((await m.callServerTool('box', 'sleep', { ms: 'not a number' })).isError).toBe(true);
    expect((await callByName(m, 'box__fail', {})).isError).toBe(true);
    await expect(callByName(m, 'box__sleep', { ms: 3000 })).rejects.toThrow('timed out after 1 s without progress; cancelled');
    for (let i = 0; i < 100 && !m.logs('box').includes('sleep: cancelled by the client'); i++) await new Promise((d) => setTimeout(d, 20));
    await new Promise((d) => setTimeout(d, 200));
    expect(m.logs('box').filter((line) => line.startsWith('heard notifications/cancelled'))).toHaveLength(1);
  });

  it('times out a call without progress and lets a call with progress run past the timeout', async () => {
    m = manager(home);
    await m.apply([toolbox('box', [], { toolTimeout: 1 })]);
    await expect(callByName(m, 'box__sleep', { ms: 3000 })).rejects.toThrow('tool "sleep" on server "box" timed out after 1 s without progress; cancelled');
    const progress: number[] = [];
    const result = await callByName(m, 'box__sleep', { ms: 2500, tick: 200 }, { onProgress: (p) => progress.push(p.progress) });
    expect(textOf(result)).toBe('slept 2500');
    expect(progress.length).toBeGreaterThan(5);
  });

  it('cancels a call at the hard maximum even while progress keeps coming', async () => {
    m = manager(home, { callHardMaxMs: 1500 });
    await m.apply([toolbox('box', [], { toolTimeout: 1 })]);
    await expect(callByName(m, 'box__sleep', { ms: 4000, tick: 100 })).rejects.toThrow('tool "sleep" on server "box" ran past the hard maximum of 1500 ms; cancelled');
    for (let i = 0; i < 100 && !m.logs('box').includes('sleep: cancelled by the client'); i++) await new Promise((d) => setTimeout(d, 20));
    expect(m.logs('box')).toContain('sleep: cancelled by the client');
    expect(textOf(await callByName(m, 'box__echo', { message: 'still fine' }))).toBe('still fine');
  });

  it("aborts the caller's own controller at the hard maximum and says so", async () => {
    m = manager(home, { callHardMaxMs: 1500 });
    await m.apply([toolbox('box', [], { toolTimeout: 1 })]);
    const ranLong = new AbortController();
    await expect(callByName(m, 'box__sleep', { ms: 4000, tick: 100 }, { controller: ranLong })).rejects.toThrow('tool "sleep" on server "box" ran past the hard maximum of 1500 ms; cancelled');
    expect(ranLong.signal.aborted).toBe(true);
    for (let i = 0; i < 100 && !m.logs('box').includes('sleep: cancelled by the client'); i++) await new Promise((d) => setTimeout(d, 20));
    expect(m.logs('box')).toContain('sleep: cancelled by the client');
  });

  it('cancels a call on abort and the server hears notifications/cancelled', async () => {
    m = manager(home);
    await m.apply([toolbox('box')]);
    await waitForState(m, 'box', is('connected'));
    const controller = new CallCancel();
    const call = callByName(m, 'box__sleep', { ms: 10_000 }, { controller });
    setTimeout(() => controller.abort(), 200);
    await expect(call).rejects.toThrow('tool "sleep" on server "box" was cancelled');
    for (let i = 0; i < 100 && !m.logs('box').includes('sleep: cancelled by the client'); i++) await new Promise((d) => setTimeout(d, 20));
    expect(m.logs('box')).toContain('sleep: cancelled by the client');
  });

  it('ends a call whose server dies mid-call with a clear error, never a hang', async () => {
    m = manager(home, { backoff: { baseMs: 60_000 } });
    await m.apply([toolbox('box'), toolbox('other')]);
    await m.settled(20_000);
    await expect(callByName(m, 'box__die', {})).rejects.toThrow(/^server "box" disconnected during the call to "die"/);
    await waitForState(m, 'box', is('backing_off'));
    expect(m.status('other')?.state.kind).toBe('connected');
  });

  it('maps images, resource links, embedded resources and structured content from server-everything', async () => {
    m = manager(home);
    await m.apply([stdio('everything', [EVERYTHING, 'stdio'])]);
    const image = await callByName(m, 'everything__get-tiny-image', {});
    expect(image.content.find((p) => p.type === 'image')).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const links = await callByName(m, 'everything__get-resource-links', { count: 2 });
    expect(links.content.filter((p) => p.type === 'resource_link')).toHaveLength(2);
    const embedded = await callByName(m, 'everything__get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(embedded.content.find((p) => p.type === 'resource')).toMatchObject({ type: 'resource', resource: { mimeType: 'text/plain' } });
    const structured = await callByName(m, 'everything__get-structured-content', { location: 'New York' });
    expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
  });
});

describe('resources, prompts and roots', () => {
  it('lists and reads resources, lists and gets prompts', async () => {
    m = manager(home);
    await m.apply([toolbox('box')]);
    await waitForState(m, 'box', is('connected'));
    expect(m.resources('box').map((r) => r.uri)).toEqual(['toolbox://note']);
    expect((await m.readResource('box', 'toolbox://note')).contents).toEqual([{ uri: 'toolbox://note', text: 'note text' }]);
    expect(m.prompts('box').map((p) => p.prompt.name)).toEqual(['greet']);
    const prompt = await m.getPrompt('box', 'greet', { who: 'Ada' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada' } }]);
  });

  it('updates resources and prompts on their list_changed notifications', async () => {
    m = manager(home);
    await m.apply([toolbox('box')]);
    await waitForState(m, 'box', is('connected'));
    await callByName(m, 'box__add-resource-and-prompt', {});
    for (let i = 0; i < 100 && (m.resources('box').length < 2 || m.prompts('box').length < 2); i++) await new Promise((d) => setTimeout(d, 20));
    expect(m.resources('box').map((r) => r.uri)).toEqual(['toolbox://note', 'toolbox://late']);
    expect(m.prompts('box').map((p) => p.prompt.name)).toEqual(['greet', 'late-prompt']);
  });

  it('serves the folders the user picked as roots, and tells servers when they change', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'switchboard-root-'));
    try {
      m = manager(home);
      await m.apply([toolbox('box')]);
      await waitForState(m, 'box', is('connected'));
      expect(JSON.parse(textOf(await callByName(m, 'box__roots', {})))).toEqual([]);
      m.setRoots([folder]);
      expect(JSON.parse(textOf(await callByName(m, 'box__roots', {})))).toEqual([{ uri: pathToFileURL(folder).href, name: folder.split('/').pop() }]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('subscribes to resource updates from server-everything', async () => {
    m = manager(home);
    await m.apply([stdio('everything', [EVERYTHING, 'stdio'])]);
    await waitForState(m, 'everything', is('connected'));
    const uri = m.resources('everything')[0]!.uri;
    const updates: string[] = [];
    m.onResourceUpdated((server, u) => updates.push(`${server} ${u}`));
    await m.subscribeResource('everything', uri);
    await callByName(m, 'everything__toggle-subscriber-updates', {});
    for (let i = 0; i < 400 && updates.length === 0; i++) await new Promise((d) => setTimeout(d, 25));
    expect(updates[0]).toBe(`everything ${uri}`);
  });
});

describe('requests from servers', () => {
  it('declares the capabilities it is given and routes sampling and elicitation to the registered handlers, per server', async () => {
    const asked: string[] = [];
    m = manager(home, {
      clientSetup: {
        capabilities: { sampling: {}, elicitation: { form: {} } },
        register: (client, server) => {
          client.setRequestHandler(CreateMessageRequestSchema, () => {
            asked.push(`sampling from ${server}`);
            return { role: 'assistant', content: { type: 'text', text: 'canned reply' }, model: 'test-model' };
          });
          client.setRequestHandler(ElicitRequestSchema, () => {
            asked.push(`elicitation from ${server}`);
            return { action: 'decline' };
          });
        },
      },
    });
    await m.apply([stdio('everything', [EVERYTHING, 'stdio'])]);
    await waitForState(m, 'everything', is('connected'));
    // server-everything adds these tools only for clients that declare the capabilities (tools/list_changed).
    for (let i = 0; i < 100 && !m.tools('everything').some((t) => t.name === 'trigger-elicitation-request'); i++) await new Promise((d) => setTimeout(d, 20));
    const sampled = await callByName(m, 'everything__trigger-sampling-request', { prompt: 'hi', maxTokens: 10 });
    expect(textOf(sampled)).toContain('canned reply');
    const elicited = await callByName(m, 'everything__trigger-elicitation-request', {});
    expect(textOf(elicited)).toMatch(/decline/i);
    expect(asked).toEqual(['sampling from everything', 'elicitation from everything']);
  });
});

describe('reference servers from npm', () => {
  it('server-filesystem works inside the roots the user picked, and follows a change of roots', async () => {
    const first = await mkdtemp(join(tmpdir(), 'switchboard-fs-a-'));
    const second = await mkdtemp(join(tmpdir(), 'switchboard-fs-b-'));
    try {
      await writeFile(join(first, 'hello.txt'), 'hello from a root');
      m = manager(home);
      m.setRoots([first]);
      await m.apply([stdio('files', [FILESYSTEM])]);
      await waitForState(m, 'files', is('connected'));
      // The server asks for roots after initialized, on its own time.
      const allowed = () => callByName(m!, 'files__list_allowed_directories', {}).then(textOf);
      for (let i = 0; i < 100 && !(await allowed()).includes(first); i++) await new Promise((d) => setTimeout(d, 50));
      expect(textOf(await callByName(m, 'files__read_text_file', { path: join(first, 'hello.txt') }))).toBe('hello from a root');
      m.setRoots([second]);
      for (let i = 0; i < 100 && !(await allowed()).includes(second); i++) await new Promise((d) => setTimeout(d, 50));
      expect(await allowed()).toContain(second);
      const outside = await callByName(m, 'files__read_text_file', { path: join(first, 'hello.txt') });
      expect(outside.isError).toBe(true);
    } finally {
      await rm(first, { recursive: true, force: true });
      await rm(second, { recursive: true, force: true });
    }
  });

  it('server-memory keeps what it is told, in the file its env names', async () => {
    const memoryFile = join(home, 'memory.jsonl');
    m = manager(home);
    await m.apply([stdio('memory', [MEMORY], { env: { MEMORY_FILE_PATH: memoryFile } })]);
    await waitForState(m, 'memory', is('connected'));
    await callByName(m, 'memory__create_entities', { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] });
    const graph = await callByName(m, 'memory__read_graph', {});
    expect(textOf(graph)).toContain('wrote the first program');
    expect(await readFile(memoryFile, 'utf8')).toContain('"name":"Ada"');
  });
});
