/**
 * Virtual scrolling maths for rows of varying height: a Fenwick tree of row heights gives the
 * offset of any row and the row at any offset in O(log n), so a 5,000-row list costs a few dozen
 * steps per frame. Unmeasured rows count at an estimate until they are rendered and measured.
 */
export class HeightIndex {
  private heights: Float64Array = new Float64Array(0);
  private tree: Float64Array = new Float64Array(1);
  private measured: Uint8Array = new Uint8Array(0);

  constructor(
    count: number,
    private readonly estimate: number,
  ) {
    if (!(estimate > 0)) throw new RangeError(`row height estimate must be positive, got ${estimate}`);
    this.resize(count);
  }

  get count(): number {
    return this.heights.length;
  }

  /** Grow or shrink to `count` rows, keeping the heights already measured. */
  resize(count: number): void {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`row count must be a whole number ≥ 0, got ${count}`);
    if (count === this.heights.length) return;
    const heights = new Float64Array(count).fill(this.estimate);
    const measured = new Uint8Array(count);
    const kept = Math.min(count, this.heights.length);
    heights.set(this.heights.subarray(0, kept));
    measured.set(this.measured.subarray(0, kept));
    this.heights = heights;
    this.measured = measured;
    this.rebuild();
  }

  /** Record a measured height; returns whether anything changed. */
  set(index: number, height: number): boolean {
    this.check(index);
    const value = Math.max(0, height);
    this.measured[index] = 1;
    const delta = value - this.heights[index]!;
    if (delta === 0) return false;
    this.heights[index] = value;
    for (let i = index + 1; i < this.tree.length; i += i & -i) this.tree[i]! += delta;
    return true;
  }

  get(index: number): number {
    this.check(index);
    return this.heights[index]!;
  }

  isMeasured(index: number): boolean {
    this.check(index);
    return this.measured[index] === 1;
  }

  /** Sum of the heights of rows [0, index). */
  offsetOf(index: number): number {
    if (index < 0 || index > this.count) throw new RangeError(`row ${index} is outside 0..${this.count}`);
    let sum = 0;
    for (let i = index; i > 0; i -= i & -i) sum += this.tree[i]!;
    return sum;
  }

  total(): number {
    return this.offsetOf(this.count);
  }

  /** The row that covers offset `y` (the last row when y is past the end; 0 when empty or y ≤ 0). */
  indexAt(y: number): number {
    if (this.count === 0 || y <= 0) return 0;
    let position = 0;
    let remaining = y;
    for (let step = highestPowerOfTwo(this.count); step > 0; step >>= 1) {
      const next = position + step;
      if (next <= this.count && this.tree[next]! <= remaining) {
        position = next;
        remaining -= this.tree[next]!;
      }
    }
    return Math.min(position, this.count - 1);
  }

  private rebuild(): void {
    const n = this.heights.length;
    this.tree = new Float64Array(n + 1);
    for (let i = 1; i <= n; i++) {
      this.tree[i]! += this.heights[i - 1]!;
      const parent = i + (i & -i);
      if (parent <= n) this.tree[parent]! += this.tree[i]!;
    }
  }

  private check(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) throw new RangeError(`row ${index} is outside 0..${this.count - 1}`);
  }
}

function highestPowerOfTwo(n: number): number {
  let power = 1;
  while (power * 2 <= n) power *= 2;
  return power;
}

export interface VisibleWindow {
  /** First row to render. */
  start: number;
  /** One past the last row to render. */
  end: number;
  /** Space above the first rendered row. */
  padTop: number;
  /** Space below the last rendered row. */
  padBottom: number;
}

/** The rows that intersect [scrollTop - overscan, scrollTop + viewport + overscan]. */
export function visibleWindow(index: HeightIndex, scrollTop: number, viewportHeight: number, overscanPx: number): VisibleWindow {
  const total = index.total();
  if (index.count === 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const top = Math.max(0, scrollTop - overscanPx);
  const bottom = Math.max(top, scrollTop + Math.max(0, viewportHeight) + overscanPx);
  const start = index.indexAt(top);
  const end = Math.min(index.count, index.indexAt(bottom) + 1);
  const padTop = index.offsetOf(start);
  return { start, end, padTop, padBottom: Math.max(0, total - index.offsetOf(end)) };
}

/** Within `slack` px of the bottom: the list follows new content there, and stays put elsewhere. */
export function isPinnedToBottom(scrollTop: number, viewportHeight: number, scrollHeight: number, slack = 24): boolean {
  return scrollHeight - (scrollTop + viewportHeight) <= slack;
}
