import { describe, expect, it } from 'vitest';
import type { CallTrace } from '../../../src-preload/contract/traces';
import { routeText, traceLines, traceSummary } from '../../../src-renderer/lib/traces/trace-lines';

const base = (extra: Partial<CallTrace>): CallTrace => ({ id: 't', server: 'docs', tool: 'search', origin: 'model', startedAt: Date.UTC(2026, 10, 23, 21, 4, 5), steps: [], droppedSteps: 0, ...extra });

describe('trace lines', () => {
  it('reads each step in words, with its offset and tone', () => {
    const trace = base({
      outcome: 'failed',
      durationMs: 2534,
      steps: [
        { kind: 'asked', at: 0, origin: 'app', argsBytes: 2048 },
        { kind: 'approved', at: 1532, by: 'policy', because: 'the rule "docs__*: allow"' },
        { kind: 'sent', at: 1533, route: { transport: 'http', connection: 3, url: 'https://mcp.example.com/mcp', session: 'a1b2c3d4' } },
        { kind: 'progress', at: 1700, progress: 5 },
        { kind: 'failed', at: 2534, code: 'unavailable', class: 'transient' },
      ],
      droppedSteps: 12,
    });
    expect(traceLines(trace)).toEqual([
      { offset: '+0 ms', kind: 'asked', text: 'asked by an app (arguments: 2.0 KB)', tone: 'plain' },
      { offset: '+1,532 ms', kind: 'approved', text: 'allowed without asking — the rule "docs__*: allow"', tone: 'good' },
      { offset: '+1,533 ms', kind: 'sent', text: 'sent to https://mcp.example.com/mcp (session #a1b2c3d4), connection 3', tone: 'plain' },
      { offset: '+1,700 ms', kind: 'progress', text: 'progress 5', tone: 'plain' },
      { offset: '+2,534 ms', kind: 'failed', text: 'failed: unavailable [transient]', tone: 'bad' },
      { offset: '', kind: 'progress', text: '12 more progress updates not kept', tone: 'plain' },
    ]);
  });

  it('tells a tool error from an answer, and a denial by the person from a rule', () => {
    const lines = traceLines(
      base({
        steps: [
          { kind: 'answered', at: 10, parts: 2, resultBytes: 3 * 1024 * 1024, isError: true, class: 'misuse' },
          { kind: 'denied', at: 11, by: 'user', because: 'you denied it' },
          { kind: 'cancelled', at: 12, stage: 'approval' },
        ],
      }),
    ).map((l) => [l.text, l.tone]);
    expect(lines).toEqual([
      ['answered with a tool error: 2 parts, 3.0 MB [misuse]', 'bad'],
      ['denied by you — you denied it', 'bad'],
      ['cancelled before it ran', 'bad'],
    ]);
  });

  it('summarises a call for the server\'s list, and names a stdio process by its pid', () => {
    const time = new Date(Date.UTC(2026, 10, 23, 21, 4, 5)).toLocaleTimeString('en-GB', { hour12: false });
    expect(traceSummary(base({ outcome: 'done', durationMs: 1234, origin: 'person' }))).toBe(`search — done in 1.2 s, asked by you (tools panel) at ${time}`);
    expect(traceSummary(base({}))).toBe(`search — under way, asked by the model at ${time}`);
    expect(routeText({ transport: 'stdio', connection: 2, pid: 4242 })).toBe('process 4242, connection 2');
  });
});
