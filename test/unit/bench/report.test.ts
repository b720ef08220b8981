import { describe, expect, it } from 'vitest';
import { judge } from '../../../bench/lib/figure';
import { formatNumber, formatStats, renderTable } from '../../../bench/lib/report';

describe('formatNumber', () => {
  it('keeps about three significant digits', () => {
    expect(formatNumber(1234.56, 'ms')).toBe('1235 ms');
    expect(formatNumber(12.345, 'ms')).toBe('12.3 ms');
    expect(formatNumber(1.2345, 'ms')).toBe('1.23 ms');
    expect(formatNumber(0.12345, 'MB')).toBe('0.123 MB');
  });
});

describe('formatStats', () => {
  it('shows median, the range and the number of runs, or a dash when the side did not run', () => {
    expect(formatStats({ median: 20, min: 10, max: 30, runs: 3 }, 'ms')).toBe('20.0 ms [10.0–30.0] ×3');
    expect(formatStats(undefined, 'ms')).toBe('—');
  });
});

describe('renderTable', () => {
  it('prints one row per figure with ratio, target and verdict, and the notes underneath', () => {
    const figure = judge({
      id: 'calls',
      title: 'calls',
      unit: 'ms',
      target: { kind: 'ratio', max: 1.1 },
      raw: { stats: { median: 100, min: 90, max: 110, runs: 5 }, work: 'callTool ×1000' },
      switchboard: { stats: { median: 120, min: 100, max: 130, runs: 5 }, work: 'core path ×1000' },
      note: 'CPU note',
    });
    const table = renderTable([figure]);
    const row = table.split('\n')[2]!;
    expect(row).toContain('| calls ');
    expect(row).toContain('100 ms [90.0–110] ×5');
    expect(row).toContain('120 ms [100–130] ×5');
    expect(row).toContain('| 1.200 ');
    expect(row).toContain('ratio ≤ 1.10');
    expect(row).toContain('MISS');
    expect(table).toContain('1. calls\n   raw SDK: callTool ×1000\n   Switchboard: core path ×1000\n   CPU note');
  });
});
