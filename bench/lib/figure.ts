import type { Stats } from './stats';

/** What a figure is held to: a ratio against the raw SDK, an absolute ceiling, or only reported. */
export type Target =
  | { kind: 'ratio'; max: number }
  | { kind: 'absolute'; max: number; unit: string }
  /** A floor on the Switchboard median (a quality figure such as recall). */
  | { kind: 'minimum'; min: number; unit: string }
  | { kind: 'report' };

export type Verdict = 'PASS' | 'MISS' | 'reported' | 'n/a';

export interface Side {
  stats: Stats;
  /** What exactly this side did, in one line. */
  work: string;
}

export interface Figure {
  id: string;
  title: string;
  unit: string;
  target: Target;
  switchboard?: Side;
  raw?: Side;
  /** Switchboard median ÷ raw SDK median, when both sides ran. */
  ratio?: number;
  verdict: Verdict;
  /** Why a figure is n/a, what a MISS was traced to, or what the numbers mean. */
  note?: string;
}

export interface FigureInput {
  id: string;
  title: string;
  unit: string;
  target: Target;
  switchboard?: Side;
  raw?: Side;
  note?: string;
}

/** Compute the ratio and the verdict; a figure with no Switchboard side is n/a, never a pass. */
export function judge(input: FigureInput): Figure {
  const sb = input.switchboard?.stats.median;
  const raw = input.raw?.stats.median;
  const ratio = sb !== undefined && raw !== undefined && raw > 0 ? sb / raw : undefined;
  const figure: Figure = { ...input, ...(ratio !== undefined ? { ratio } : {}), verdict: verdictOf(input.target, sb, ratio) };
  return figure;
}

function verdictOf(target: Target, sb: number | undefined, ratio: number | undefined): Verdict {
  if (sb === undefined) return 'n/a';
  switch (target.kind) {
    case 'report':
      return 'reported';
    case 'absolute':
      return sb <= target.max ? 'PASS' : 'MISS';
    case 'minimum':
      return sb >= target.min ? 'PASS' : 'MISS';
    case 'ratio':
      if (ratio === undefined) return 'n/a';
      return ratio <= target.max ? 'PASS' : 'MISS';
    default:
      return target satisfies never;
  }
}

/** A figure whose Switchboard side does not exist yet: printed as n/a with the reason, never faked. */
export function notBuilt(input: Omit<FigureInput, 'switchboard'>, reason: string): Figure {
  return { ...input, verdict: 'n/a', note: `n/a (not built): ${reason}${input.note ? `; ${input.note}` : ''}` };
}

export function describeTarget(target: Target): string {
  switch (target.kind) {
    case 'ratio':
      return `ratio ≤ ${target.max.toFixed(2)}`;
    case 'absolute':
      return `≤ ${target.max} ${target.unit}`;
    case 'minimum':
      return `≥ ${target.min}${target.unit ? ` ${target.unit}` : ''}`;
    case 'report':
      return 'reported';
    default:
      return target satisfies never;
  }
}
