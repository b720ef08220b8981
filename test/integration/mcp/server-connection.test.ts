import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import type { Scheduler } from '../../../src-main/core/mcp/server-session';
import { schemaValidator } from '../../../src-main/core/mcp/schema-validator';
import { callByName, EVERYTHING, fixture, is, manager, stdio, tempHome, waitForState } from './helpers';

/** Timers the test fires by hand, with a clock that moves when they fire: no real minutes waited. */
class ManualTime implements Scheduler {
  now = 1_000_000;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 0;
  readonly clock = { now: () => this.now };
  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.nextId;
    this.timers.push({ at: this.now + ms, callback, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((t) => t.id !== handle);
  }
  get pending(): number[] {
    return this.timers.map((t) => t.at - this.now);
  }
  /** Jump to the earliest timer and run it. */
  fireNext(): void {
    this.timers.sort((a, b) => a.at - b.at);
    const next = this.timers.shift();
    if (!next) throw new Error('no timer pending');
    this.now = next.at;
    next.callback();
  }
}

let home: string;
let cleanup: () => Promise<void>;
let m: McpManager | undefined;
beforeEach(async () => ({ home, cleanup } = await tempHome()));
afterEach(async () => {
  await m?.stop();
  m = undefined;
  await cleanup();
});

const toolbox = (name: string, extra: string[] = []) => stdio(name, [fixture('toolbox.mjs'), '--name', name, ...extra]);

describe('keep-alive', () => {
  it('restarts a crashed server after a backoff that doubles, showing the next attempt', async () => {
    const time = new ManualTime();
    m = manager(home, { scheduler: time, clock: time.clock });
    await m.apply([toolbox('box'), toolbox('neighbour')]);
    await m.settled(20_000);
    const firstPid = (await callByName(m, 'box__pid', {})).content;
    await callByName(m, 'box__die', {}).catch(() => {});
    expect(await waitForState(m, 'box', is('backing_off'))).toEqual({
      kind: 'backing_off',
      reason: 'exited with code 3; retrying in 1 s',
      nextAttemptAt: time.now + 1000,
    });
    expect(time.pending).toEqual([1000]);
    // Its tools stay in the catalog, pending, so the chat does not lose them during a restart.
    expect(m.tools('box').find((t) => t.qualifiedName === 'box__echo')).toMatchObject({ pending: true });
    const waiting = callByName(m, 'box__echo', { message: 'after the restart' });
    time.fireNext();
    await waitForState(m, 'box', is('connected'));
    expect((await waiting).content).toEqual([{ type: 'text', text: 'after the restart' }]);
    expect((await callByName(m, 'box__pid', {})).content).not.toEqual(firstPid);
    await callByName(m, 'box__die', {}).catch(() => {});
    expect((await waitForState(m, 'box', is('backing_off'))).reason).toBe('exited with code 3; retrying in 2 s');
    expect(m.status('neighbour')?.state.kind).toBe('connected');
  });

  it('stops retrying after a crash loop with a clear reason, and a manual reconnect starts afresh', async () => {
    const time = new ManualTime();
    m = manager(home, { scheduler: time, clock: time.clock, backoff: { crashLimit: 3, windowMs: 120_000 } });
    await m.apply([toolbox('loop', ['--die-after', '150'])]);
    expect((await waitForState(m, 'loop', is('backing_off'))).reason).toBe('exited with code 3; retrying in 1 s');
    time.fireNext();
    expect((await waitForState(m, 'loop', (s) => s.kind === 'backing_off' && s.reason.endsWith('2 s'))).reason).toBe('exited with code 3; retrying in 2 s');
    time.fireNext();
    expect(await waitForState(m, 'loop', is('error'))).toEqual({
      kind: 'error',
      reason: 'crashed 3 times in 2 minutes; stopped retrying — reconnect by hand (last: exited with code 3)',
    });
    expect(time.pending).toEqual([]);
    await m.reconnect('loop');
    expect(['connected', 'backing_off']).toContain(m.status('loop')?.state.kind);
    expect((await waitForState(m, 'loop', is('backing_off'))).reason).toBe('exited with code 3; retrying in 1 s');
  });

  it('does not retry a server that failed its first start; the reason stays until reconnected by hand', async () => {
    const time = new ManualTime();
    m = manager(home, { scheduler: time, clock: time.clock });
    await m.apply([stdio('crash', [fixture('crash-on-start.mjs')])]);
    expect(await waitForState(m, 'crash', is('error'))).toEqual({ kind: 'error', reason: 'exited with code 1 during initialize', stderrTail: ['fatal: API_KEY is not set'] });
    expect(time.pending).toEqual([]);
  });
});

const textOf = (r: Awaited<ReturnType<typeof callByName>>) => r.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
const listsHeard = (mgr: McpManager, name: string) => mgr.logs(name).filter((line) => line.includes('heard tools/list')).length;

describe('tool lists', () => {
  it('lists the tools once more for a burst of tools/list_changed, not once per notification, and ends with every tool', async () => {
    m = manager(home);
    await m.apply([stdio('burst', [fixture('toolbox.mjs'), '--name', 'burst', '--say-lists'])]);
    await waitForState(m, 'burst', is('connected'));
    await expect.poll(() => listsHeard(m!, 'burst')).toBe(1);

    // Five registrations in one go: the server sends five notifications back to back.
    await callByName(m, 'burst__add-tools', { n: 5 });
    const extras = ['burst__extra-1', 'burst__extra-2', 'burst__extra-3', 'burst__extra-4', 'burst__extra-5'];
    await expect.poll(() => extras.every((name) => m!.tools('burst').some((t) => t.qualifiedName === name)), { timeout: 5_000 }).toBe(true);
    // A notification that arrives while a list is under way needs one more; later ones wait for that one.
    await new Promise((done) => setTimeout(done, 300));
    const after = listsHeard(m, 'burst') - 1;
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(2);

    // A change notified after the last list started is still listed.
    await callByName(m, 'burst__add-tools', { n: 1 });
    await expect.poll(() => m!.tools('burst').some((t) => t.qualifiedName === 'burst__extra-6'), { timeout: 5_000 }).toBe(true);
    expect(textOf(await callByName(m, 'burst__extra-6', {}))).toBe('extra 6');
  });

  it("two servers' clients check structured results with the one shared validator, which compiled their output schema once", async () => {
    const before = schemaValidator.size;
    m = manager(home);
    await m.apply([stdio('one', [EVERYTHING, 'stdio']), stdio('two', [EVERYTHING, 'stdio'])]);
    await waitForState(m, 'one', is('connected'));
    await waitForState(m, 'two', is('connected'));
    for (const server of ['one', 'two']) {
      const result = await callByName(m, `${server}__get-structured-content`, { location: 'Chicago' });
      expect(result.structuredContent).toEqual({ temperature: expect.any(Number), conditions: expect.any(String), humidity: expect.any(Number) });
    }
    // get-structured-content is the one tool with an output schema; both servers list it (each maybe twice).
    expect(schemaValidator.size - before).toBe(1);
  });
});
