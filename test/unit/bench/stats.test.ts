import { describe, expect, it } from 'vitest';
import { interleave, interleaveBlocks, summarize } from '../../../bench/lib/stats';

describe('summarize', () => {
  it('gives the middle value of an odd count, with min, max and the number of runs', () => {
    expect(summarize([30, 10, 20])).toEqual({ median: 20, min: 10, max: 30, runs: 3 });
  });

  it('averages the two middle values of an even count', () => {
    expect(summarize([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4, runs: 4 });
  });

  it('leaves the input order alone', () => {
    const values = [3, 1, 2];
    summarize(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('refuses zero runs and names the problem', () => {
    expect(() => summarize([])).toThrow('summarize: no values (a benchmark ran zero times)');
  });

  it('refuses a value that is not a finite number', () => {
    expect(() => summarize([1, Number.NaN])).toThrow('summarize: a value is not a finite number (1, NaN)');
  });
});

describe('interleave', () => {
  it('runs every side once per round, alternating the order round by round', async () => {
    const calls: string[] = [];
    const side = (name: string, value: number) => async () => {
      calls.push(name);
      return value;
    };
    const out = await interleave(3, { a: side('a', 1), b: side('b', 2) });
    expect(calls).toEqual(['a', 'b', 'b', 'a', 'a', 'b']);
    expect(out).toEqual({ a: [1, 1, 1], b: [2, 2, 2] });
  });
});

describe('interleaveBlocks', () => {
  it('sums each side over its blocks, one total per run, sides taking turns block by block', async () => {
    const calls: string[] = [];
    let n = 0;
    const out = await interleaveBlocks(2, 2, {
      a: async () => {
        calls.push('a');
        return ++n;
      },
      b: async () => {
        calls.push('b');
        return 100;
      },
    });
    expect(calls).toEqual(['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    expect(out).toEqual({ a: [1 + 2, 3 + 4], b: [200, 200] });
  });
});
