import { describe, expect, it } from 'vitest';
import { labelledRequests, realServers, searchQuality, syntheticServers } from '../../../bench/tool-search/labelled-set';
import { visibleTo } from '../../../src-preload/contract/tools';

describe('the tool-search bench inputs', () => {
  const visible = new Set(realServers().flatMap((s) => s.tools.filter((t) => visibleTo(t, 'model')).map((t) => `${s.server}/${t.name}`)));

  it('holds at least 200 labelled requests, each naming tools a real server lists and the model may see', () => {
    const requests = labelledRequests();
    expect(requests.length).toBeGreaterThanOrEqual(200);
    for (const r of [...requests, ...labelledRequests('held-out.tsv'), ...labelledRequests('held-out-2.tsv')]) for (const name of r.expected) expect(visible, `${r.request} -> ${name}`).toContain(name);
    // Every tool the model may see is the target of at least one request.
    expect(new Set(requests.flatMap((r) => r.expected))).toEqual(visible);
  });

  it('holds a second held-out set of at least 60 requests over all six servers', () => {
    const heldOut2 = labelledRequests('held-out-2.tsv');
    expect(heldOut2.length).toBeGreaterThanOrEqual(60);
    expect(new Set(heldOut2.flatMap((r) => r.expected.map((name) => name.split('/')[0])))).toEqual(new Set(realServers().map((s) => s.server)));
  });

  it('builds 50 servers × 40 tools from real definitions, each traced back to its real tool', () => {
    const { sources, origin } = syntheticServers(50, 40);
    expect(sources.flatMap((s) => s.tools)).toHaveLength(2000);
    expect(origin('srv00', sources[0]!.tools[0]!.name)).toBe(`${realServers()[0]!.server}/${sources[0]!.tools[0]!.name}`);
  });

  it('computes recall@k and MRR', () => {
    const requests = [
      { request: 'a', expected: ['x'] },
      { request: 'b', expected: ['y'] },
      { request: 'c', expected: ['z'] },
    ];
    const results: Record<string, string[]> = { a: ['x'], b: ['q', 'y'], c: ['q', 'r', 's', 't', 'u', 'z'] };
    const quality = searchQuality(requests, (q) => results[q]!, 5);
    expect(quality.recallAtK).toBeCloseTo(2 / 3);
    expect(quality.mrr).toBeCloseTo((1 + 1 / 2 + 1 / 6) / 3);
    expect(quality.misses.map((m) => m.request)).toEqual(['c']);
  });
});
