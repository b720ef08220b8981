import { describe, expect, it } from 'vitest';
import { CrashTracker, formatDuration } from '../../../src-main/core/mcp/backoff';

const clockAt = (start: number) => {
  const clock = { t: start, now: () => clock.t };
  return clock;
};

describe('CrashTracker', () => {
  it('doubles the delay per crash up to the cap', () => {
    const clock = clockAt(0);
    const tracker = new CrashTracker({ baseMs: 1000, maxMs: 5000, crashLimit: 10, windowMs: 60_000 }, clock);
    const delays = [1, 2, 3, 4, 5].map(() => {
      clock.t += 100;
      const d = tracker.recordCrash();
      return d.kind === 'retry' ? d.delayMs : -1;
    });
    expect(delays).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('calls N crashes within the window a crash loop, and forgets crashes older than the window', () => {
    const clock = clockAt(0);
    const tracker = new CrashTracker({ baseMs: 1000, maxMs: 60_000, crashLimit: 3, windowMs: 120_000 }, clock);
    expect(tracker.recordCrash().kind).toBe('retry');
    clock.t = 200_000; // the first crash is now outside the window
    expect(tracker.recordCrash()).toEqual({ kind: 'retry', delayMs: 1000 });
    clock.t += 1000;
    expect(tracker.recordCrash()).toEqual({ kind: 'retry', delayMs: 2000 });
    clock.t += 1000;
    expect(tracker.recordCrash()).toEqual({ kind: 'give_up', reason: 'crashed 3 times in 2 minutes; stopped retrying — reconnect by hand' });
    tracker.reset();
    expect(tracker.recordCrash()).toEqual({ kind: 'retry', delayMs: 1000 });
  });

  it('never gives up when asked not to (a remote server), retrying at the capped delay', () => {
    const clock = clockAt(0);
    const tracker = new CrashTracker({ baseMs: 1000, maxMs: 4000, crashLimit: 3, windowMs: 120_000 }, clock);
    const delays = [1, 2, 3, 4, 5, 6].map(() => {
      clock.t += 100;
      const d = tracker.recordCrash({ giveUp: false });
      return d.kind === 'retry' ? d.delayMs : -1;
    });
    expect(delays).toEqual([1000, 2000, 4000, 4000, 4000, 4000]);
  });
});

describe('formatDuration', () => {
  it('says minutes, seconds or milliseconds', () => {
    expect(formatDuration(120_000)).toBe('2 minutes');
    expect(formatDuration(60_000)).toBe('1 minute');
    expect(formatDuration(90_000)).toBe('90 s');
    expect(formatDuration(250)).toBe('250 ms');
  });
});
