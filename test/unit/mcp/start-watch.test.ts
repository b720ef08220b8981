import { afterEach, describe, expect, it } from 'vitest';
import { StartWatch } from '../../../src-main/core/mcp/first-run';

/** The watch's own rules, with the process group's work supplied by the test instead of /proc. */
let watch: StartWatch | undefined;
afterEach(() => watch?.dispose());

describe('StartWatch', () => {
  it('reads no process group while the start keeps printing, and times out once both output and work stop', async () => {
    const readings: number[] = [];
    watch = new StartWatch({ timeoutMs: 2000, probeMs: 20, pid: () => 4242, onProgress: () => {}, sample: async () => (readings.push(Date.now()), 7) });
    const printing = setInterval(() => watch?.output('npm http fetch GET 200 https://registry.npmjs.org/x\n'), 20);
    // Printing for well over the timeout: never idle for half of it (1 s, room for a stalled event loop), so never sampled.
    await new Promise<void>((resolve) => setTimeout(resolve, 3000));
    clearInterval(printing);
    expect(readings).toEqual([]);
    expect(watch.requestOptions.signal.aborted).toBe(false);
    // Quiet now, and the group's work stays at 7: sampled from half the timeout on, then aborted.
    await expect.poll(() => watch?.requestOptions.signal.aborted, { timeout: 30_000 }).toBe(true);
    expect(readings.length).toBeGreaterThan(0);
  });

  it('counts work done since the last reading as progress, and times out once it stops growing', async () => {
    let work = 0;
    let readings = 0;
    watch = new StartWatch({ timeoutMs: 400, probeMs: 20, pid: () => 4242, onProgress: () => {}, sample: async () => (readings++, readings < 40 ? (work += 1) : work) });
    // Growing for 40 readings, then flat: aborted only after that.
    await expect.poll(() => watch?.requestOptions.signal.aborted, { timeout: 30_000 }).toBe(true);
    expect(readings).toBeGreaterThanOrEqual(40);
  });
});
