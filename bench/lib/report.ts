import { describeTarget, type Figure } from './figure';
import type { Stats } from './stats';

export function formatNumber(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3;
  return `${value.toFixed(digits)} ${unit}`;
}

export function formatStats(stats: Stats | undefined, unit: string): string {
  if (!stats) return '—';
  return `${formatNumber(stats.median, unit)} [${formatNumber(stats.min, '').trim()}–${formatNumber(stats.max, '').trim()}] ×${stats.runs}`;
}

/** A plain-text table: one row per figure, its notes underneath, numbered. */
export function renderTable(figures: Figure[]): string {
  const header = ['figure', 'raw SDK median [min–max] ×runs', 'Switchboard median [min–max] ×runs', 'ratio', 'target', 'verdict'];
  const rows = figures.map((f) => [
    f.title,
    formatStats(f.raw?.stats, f.unit),
    formatStats(f.switchboard?.stats, f.unit),
    f.ratio === undefined ? 'n/a' : f.ratio.toFixed(3),
    describeTarget(f.target),
    f.verdict,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  const notes = figures.flatMap((f, i) => {
    const lines = [];
    if (f.raw) lines.push(`raw SDK: ${f.raw.work}`);
    if (f.switchboard) lines.push(`Switchboard: ${f.switchboard.work}`);
    if (f.note) lines.push(f.note);
    return lines.length ? [`${i + 1}. ${f.title}\n   ${lines.join('\n   ')}`] : [];
  });
  return `${out.join('\n')}\n\n${notes.join('\n')}\n`;
}
