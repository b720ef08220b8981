import { describe, expect, it } from 'vitest';
import { LineRing } from '../../../src-main/core/mcp/line-ring';

describe('LineRing', () => {
  it('joins lines split across chunks and keeps only the last N', () => {
    const ring = new LineRing(3);
    ring.write('one\ntw');
    ring.write('o\r\nthree\nfour\nfi');
    expect(ring.snapshot()).toEqual(['three', 'four', 'fi']);
  });

  it('caps a huge line so a flood costs bounded memory', () => {
    const ring = new LineRing(5, 10);
    ring.push('x'.repeat(25));
    expect(ring.snapshot()).toEqual(['xxxxxxxxxx … [15 more characters]']);
    ring.write('y'.repeat(30));
    expect(ring.snapshot()[1]).toBe('yyyyyyyyyy … [20 more characters]');
  });

  it('tells its listener once per chunk written and per line pushed, so a Logs tab can follow it', () => {
    let grew = 0;
    const ring = new LineRing(3, 100, () => (grew += 1));
    ring.write('one\ntwo\nthr');
    ring.push('[switchboard] a note');
    expect(grew).toBe(2);
    expect(ring.snapshot()).toEqual(['two', '[switchboard] a note', 'thr']);
  });
});
