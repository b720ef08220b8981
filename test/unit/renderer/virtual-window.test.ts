import { describe, expect, it } from 'vitest';
import { HeightIndex, isPinnedToBottom, visibleWindow } from '../../../src-renderer/lib/chat/virtual-window';

/** The slow, obvious answer the tree must agree with. */
const naiveOffset = (heights: number[], index: number) => heights.slice(0, index).reduce((a, b) => a + b, 0);

describe('HeightIndex', () => {
  it('counts unmeasured rows at the estimate', () => {
    const index = new HeightIndex(5000, 40);
    expect(index.total()).toBe(200_000);
    expect(index.offsetOf(10)).toBe(400);
    expect(index.isMeasured(3)).toBe(false);
  });

  it('agrees with a plain prefix sum after measuring rows of varied heights', () => {
    const heights = Array.from({ length: 777 }, (_, i) => 20 + ((i * 37) % 113));
    const index = new HeightIndex(heights.length, 50);
    heights.forEach((h, i) => index.set(i, h));
    for (const i of [0, 1, 2, 63, 64, 65, 500, 776, 777]) expect(index.offsetOf(i)).toBe(naiveOffset(heights, i));
    expect(index.total()).toBe(naiveOffset(heights, heights.length));
    expect(index.isMeasured(400)).toBe(true);
  });

  it('finds the row covering any offset, including row boundaries', () => {
    const heights = [10, 30, 5, 100, 1];
    const index = new HeightIndex(5, 7);
    heights.forEach((h, i) => index.set(i, h));
    expect(index.indexAt(0)).toBe(0);
    expect(index.indexAt(9.9)).toBe(0);
    expect(index.indexAt(10)).toBe(1);
    expect(index.indexAt(39)).toBe(1);
    expect(index.indexAt(40)).toBe(2);
    expect(index.indexAt(45)).toBe(3);
    expect(index.indexAt(145)).toBe(4);
    expect(index.indexAt(10_000)).toBe(4);
    expect(index.indexAt(-5)).toBe(0);
  });

  it('keeps measured heights when the list grows and drops them when it shrinks', () => {
    const index = new HeightIndex(3, 10);
    index.set(0, 100);
    index.set(2, 50);
    index.resize(6);
    expect(index.total()).toBe(100 + 10 + 50 + 30);
    expect(index.isMeasured(2)).toBe(true);
    expect(index.isMeasured(4)).toBe(false);
    index.resize(1);
    expect(index.total()).toBe(100);
  });

  it('reports whether a measurement changed anything', () => {
    const index = new HeightIndex(2, 10);
    expect(index.set(1, 30)).toBe(true);
    expect(index.set(1, 30)).toBe(false);
  });

  it('refuses rows outside the list and a non-positive estimate, naming the value', () => {
    const index = new HeightIndex(3, 10);
    expect(() => index.set(3, 1)).toThrow('row 3 is outside 0..2');
    expect(() => index.get(-1)).toThrow('row -1 is outside 0..2');
    expect(() => index.offsetOf(4)).toThrow('row 4 is outside 0..3');
    expect(() => index.resize(-1)).toThrow('row count must be a whole number ≥ 0, got -1');
    expect(() => new HeightIndex(3, 0)).toThrow('row height estimate must be positive, got 0');
    expect(index.total()).toBe(30);
  });
});

describe('visibleWindow', () => {
  it('renders only the rows in view plus the overscan out of 5,000', () => {
    const index = new HeightIndex(5000, 50);
    const win = visibleWindow(index, 100_000, 600, 200);
    // Rows from y=99,800 to y=100,800: 1,996 … 2,016.
    expect(win.start).toBe(1996);
    expect(win.end).toBe(2017);
    expect(win.padTop).toBe(1996 * 50);
    expect(win.padTop + (win.end - win.start) * 50 + win.padBottom).toBe(index.total());
  });

  it('clamps at the top and the bottom', () => {
    const index = new HeightIndex(100, 20);
    expect(visibleWindow(index, 0, 100, 40)).toEqual({ start: 0, end: 8, padTop: 0, padBottom: 92 * 20 });
    const bottom = visibleWindow(index, 1900, 100, 40);
    expect(bottom.end).toBe(100);
    expect(bottom.padBottom).toBe(0);
  });

  it('is empty for an empty list', () => {
    expect(visibleWindow(new HeightIndex(0, 20), 0, 500, 100)).toEqual({ start: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('follows measured heights: a tall row shrinks the window', () => {
    const index = new HeightIndex(50, 20);
    index.set(0, 1000);
    expect(visibleWindow(index, 0, 500, 0)).toMatchObject({ start: 0, end: 1 });
  });
});

describe('isPinnedToBottom', () => {
  it('is true within the slack of the bottom and false above it', () => {
    expect(isPinnedToBottom(900, 100, 1000)).toBe(true);
    expect(isPinnedToBottom(880, 100, 1000)).toBe(true);
    expect(isPinnedToBottom(870, 100, 1000)).toBe(false);
  });
});
