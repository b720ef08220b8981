import { describe, expect, it } from 'vitest';
import { FloodGuard } from '../../../src-renderer/lib/apps/flood-guard';

describe('the flood guard (SECURITY U5)', () => {
  it('admits up to the limit within one second and refuses the next', () => {
    const now = 0;
    const guard = new FloodGuard(3, () => now);
    expect([guard.admit(), guard.admit(), guard.admit(), guard.admit()]).toEqual([true, true, true, false]);
  });

  it('forgets messages older than a second, so a steady app is never stopped', () => {
    let now = 0;
    const guard = new FloodGuard(10, () => now);
    for (let i = 0; i < 5000; i++) {
      now += 101; // ten a second, for over eight minutes
      expect(guard.admit()).toBe(true);
    }
    // A second of quiet forgets them all: a burst of ten passes, the eleventh does not.
    now += 1000;
    for (let i = 0; i < 10; i++) expect(guard.admit()).toBe(true);
    expect(guard.admit()).toBe(false);
  });
});
