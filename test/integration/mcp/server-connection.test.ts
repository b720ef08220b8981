import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import type { Scheduler } from '../../../src-main/core/mcp/server-connection';
import { callByName, fixture, is, manager, stdio, tempHome, waitForState } from './helpers';

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
    expect(await waitForState(m, 'crash', is('error'))).toEqual({ kind: 'error', reason: 'exited with code 1 during initialize' });
    expect(time.pending).toEqual([]);
  });
});
