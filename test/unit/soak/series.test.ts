import { describe, expect, it } from 'vitest';
import { causeOf } from '../../../soak/lib/calls';
import { countBy, laterHalf, percentile, slope } from '../../../soak/lib/series';

describe('soak figures', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 … 1, unsorted on purpose
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeUndefined();
  });

  it('measures a growth trend as a least-squares slope', () => {
    expect(slope([10, 12, 14, 16])).toBeCloseTo(2);
    expect(slope([5, 5, 5, 5])).toBe(0);
    expect(slope([3, 1, 3, 1, 3, 1])).toBeCloseTo(-3 / 17.5, 6); // noise, no trend
    expect(slope([42])).toBe(0);
    expect(laterHalf([1, 2, 3, 4, 5])).toEqual([3, 4, 5]);
  });

  it('groups failures by cause with names and numbers taken out', () => {
    expect(causeOf('server "victim-3" disconnected during the call to "echo" (exited with signal SIGKILL; retrying in 2 s)')).toBe(
      'server "…" disconnected during the call to "…" (exited with signal SIGKILL; retrying in N s)',
    );
    expect(countBy(['a', 'b', 'a'], (x) => x)).toEqual({ a: 2, b: 1 });
  });
});

describe('planRound', () => {
  it('spreads the calls by weight and reaches every server even when the round is short', async () => {
    const { planRound } = await import('../../../soak/lib/calls');
    const { stdio } = await import('../../integration/mcp/helpers');
    const server = (name: string) => ({ role: 'healthy' as const, config: stdio(name, []) });
    const servers = ['victim-0', 'everything-0', 'toolbox', 'noisy', 'stubborn', 'crash'].map(server);
    const count = (total: number) => Object.fromEntries(servers.map((s) => [s.config.name, planRound(servers, total, 0).filter((c) => c.server === s.config.name).length]));
    expect(count(30)).toEqual({ 'victim-0': 8, 'everything-0': 7, toolbox: 7, noisy: 1, stubborn: 5, crash: 2 });
    expect(count(40)).toEqual({ 'victim-0': 10, 'everything-0': 14, toolbox: 8, noisy: 1, stubborn: 5, crash: 2 });
  });
});
