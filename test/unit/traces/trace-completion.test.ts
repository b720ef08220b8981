/**
 * A call's outcome is handed back before its trace is completed (the result's size, the last step,
 * the export wait to be completed with the other calls of the moment), and anything that reads traces,
 * or stops them, completes what is pending first: nobody sees a half-finished trace of a call that ended.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CallTrace } from '../../../src-preload/contract';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { CallTraces, COMPLETE_AFTER_MS, COMPLETE_AT, type TraceSink } from '../../../src-main/core/traces/call-traces';
import type { CallOutcome } from '../../../src-main/core/mcp/call-vocabulary';

const tool = { server: 'box', name: 'echo', qualifiedName: 'box__echo', enabled: true, inputSchema: { type: 'object' } } as CatalogTool;
const args = { message: 'hello' };
const result = { content: [{ type: 'text' as const, text: 'Echo: hello' }], truncatedChars: 0 };
const done: CallOutcome = { kind: 'done', tool, args, because: 'rule', result };

function tracesWithSink() {
  const exported: CallTrace[] = [];
  const sink: TraceSink = { export: (trace) => exported.push(trace), shutdown: async () => {} };
  let now = 1_000;
  const traces = new CallTraces({ sink, clock: { now: () => now } });
  const call = (endAfterMs: number) =>
    traces.record({ server: 'box', tool: 'echo' }, args, { origin: 'person' }, async (recording) => {
      recording.resolved(tool);
      recording.approved('policy', 'rule');
      now += endAfterMs;
      return done;
    });
  return { traces, exported, call, later: (ms: number) => (now += ms) };
}

describe('completing a call trace', () => {
  afterEach(() => vi.useRealTimers());

  it('hands the outcome back first, then completes the trace soon after with the time the call ended', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { exported, call, later } = tracesWithSink();
    const outcome = await call(40);
    expect(outcome).toBe(done);
    expect(exported).toHaveLength(0);
    later(COMPLETE_AFTER_MS); // time passing before completion does not count in the call's duration
    await vi.advanceTimersByTimeAsync(COMPLETE_AFTER_MS - 1);
    expect(exported).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(exported).toHaveLength(1);
    const [trace] = exported;
    expect(trace).toMatchObject({ server: 'box', tool: 'echo', outcome: 'done', durationMs: 40 });
    expect(trace!.steps.at(-1)).toMatchObject({ kind: 'answered', at: 40, resultBytes: JSON.stringify({ content: result.content }).length, parts: 1 });
  });

  it('completes pending traces before a read, and before shutdown', async () => {
    const { traces, exported, call } = tracesWithSink();
    await call(5);
    const [read] = traces.forServer('box');
    expect(read).toMatchObject({ outcome: 'done', durationMs: 5 });
    expect(exported).toHaveLength(1);
    await call(7);
    await traces.shutdown();
    expect(exported.map((t) => t.durationMs)).toEqual([5, 7]);
  });

  it('completes the calls of a busy moment together, and at once when many wait', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { exported, call } = tracesWithSink();
    for (let i = 0; i < 3; i++) await call(1);
    await vi.advanceTimersByTimeAsync(COMPLETE_AFTER_MS);
    expect(exported).toHaveLength(3);
    for (let i = 0; i < COMPLETE_AT; i++) await call(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(exported).toHaveLength(3 + COMPLETE_AT);
  });

  it('gives each trace its own id within the process', async () => {
    const { traces, call } = tracesWithSink();
    await call(1);
    await call(1);
    const ids = traces.forServer('box').map((t) => t.id);
    expect(new Set(ids).size).toBe(2);
  });
});
