import { describe, expect, it } from 'vitest';
import { describeTarget, judge, notBuilt } from '../../../bench/lib/figure';

const stats = (median: number) => ({ median, min: median, max: median, runs: 1 });
const base = { id: 'x', title: 'a figure', unit: 'ms' };

describe('judge', () => {
  it('passes a ratio at or under its target and misses one over it', () => {
    const at = judge({ ...base, target: { kind: 'ratio', max: 1.1 }, raw: { stats: stats(100), work: 'raw' }, switchboard: { stats: stats(110), work: 'sb' } });
    expect(at.ratio).toBeCloseTo(1.1);
    expect(at.verdict).toBe('PASS');
    const over = judge({ ...base, target: { kind: 'ratio', max: 1.1 }, raw: { stats: stats(100), work: 'raw' }, switchboard: { stats: stats(111), work: 'sb' } });
    expect(over.verdict).toBe('MISS');
  });

  it('judges an absolute target on the Switchboard median, whatever the raw side did', () => {
    const pass = judge({ ...base, target: { kind: 'absolute', max: 50, unit: 'ms' }, raw: { stats: stats(1), work: 'raw' }, switchboard: { stats: stats(49), work: 'sb' } });
    expect(pass.verdict).toBe('PASS');
    expect(pass.ratio).toBe(49);
    const miss = judge({ ...base, target: { kind: 'absolute', max: 50, unit: 'ms' }, switchboard: { stats: stats(51), work: 'sb' } });
    expect(miss.verdict).toBe('MISS');
    expect(miss.ratio).toBeUndefined();
  });

  it('never passes a figure whose Switchboard side did not run', () => {
    expect(judge({ ...base, target: { kind: 'ratio', max: 1.05 }, raw: { stats: stats(10), work: 'raw' } }).verdict).toBe('n/a');
    expect(judge({ ...base, target: { kind: 'ratio', max: 1.05 }, switchboard: { stats: stats(10), work: 'sb' } }).verdict).toBe('n/a');
  });

  it('passes a minimum target at or above its floor and misses one under it', () => {
    const target = { kind: 'minimum', min: 0.95, unit: '' } as const;
    expect(judge({ ...base, target, switchboard: { stats: stats(0.95), work: 'sb' } }).verdict).toBe('PASS');
    expect(judge({ ...base, target, switchboard: { stats: stats(0.949), work: 'sb' } }).verdict).toBe('MISS');
    expect(describeTarget(target)).toBe('≥ 0.95');
    expect(describeTarget({ kind: 'minimum', min: 2, unit: 'x' })).toBe('≥ 2 x');
  });

  it('marks a report-only figure as reported', () => {
    expect(judge({ ...base, target: { kind: 'report' }, switchboard: { stats: stats(10), work: 'sb' } }).verdict).toBe('reported');
  });
});

describe('notBuilt', () => {
  it('is n/a with the reason, and keeps any note after it', () => {
    const figure = notBuilt({ ...base, target: { kind: 'report' }, note: 'extra' }, 'no chat page yet');
    expect(figure.verdict).toBe('n/a');
    expect(figure.note).toBe('n/a (not built): no chat page yet; extra');
    expect(figure.switchboard).toBeUndefined();
  });
});

describe('describeTarget', () => {
  it('says what each kind of target asks for', () => {
    expect(describeTarget({ kind: 'ratio', max: 1.05 })).toBe('ratio ≤ 1.05');
    expect(describeTarget({ kind: 'absolute', max: 16, unit: 'ms (p95 frame)' })).toBe('≤ 16 ms (p95 frame)');
    expect(describeTarget({ kind: 'report' })).toBe('reported');
  });
});
