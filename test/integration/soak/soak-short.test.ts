// The soak's short profile (soak/lib/soak.ts SHORT) inside `npm test`: the same checks as
// `npm run soak`, on fewer servers and rounds, so a regression in any of them fails here first.
import { describe, expect, it } from 'vitest';
import { runChaosSoak } from '../../../soak/lib/chaos-soak';
import { runPowerCut } from '../../../soak/lib/power-cut';
import { SHORT } from '../../../soak/lib/soak';
import { runFuzz } from '../../../soak/fuzz/run-fuzz';

describe('soak, short profile', () => {
  it('keeps healthy servers answering while a server is SIGKILLed, brings it back, and leaves no process or damaged file', { timeout: 120_000 }, async () => {
    const figures = await runChaosSoak(SHORT.chaos);
    expect(figures.problems).toEqual([]);
    expect(figures.byRole.healthy).toEqual({ calls: 40, failed: 0 });
    expect(figures.byRole.fault).toEqual({ calls: 4, failed: 4 }); // exact message checked per call
    expect(figures.kills).toHaveLength(1);
    expect(figures.kills[0]!.recoveredMs).toBeGreaterThan(0);
    expect(figures.sessionsStarted).toBeGreaterThanOrEqual(5); // 5 that stay up (crash exits before it can be seen), and the victim's restart
    expect(figures.orphans).toEqual([]);
    expect(figures.files.corrupted).toEqual([]);
    expect(figures.files.conversations).toBe(2);
  });

  it('finds every file whole, old or new, after SIGKILLs in the middle of writes', { timeout: 120_000 }, async () => {
    const figures = await runPowerCut(SHORT.powerCuts);
    expect(figures.corrupted).toEqual([]);
    expect(figures.cuts).toBe(2);
    expect(figures.filesChecked).toBe(8);
    expect(figures.writesDone).toBeGreaterThan(0);
  });

  it('fuzzes the config parser, ${…} expansion and the WebSocket parser without a crash, a hang or an inexact error', async () => {
    const figures = await runFuzz(SHORT.fuzzRuns);
    expect(figures.filter((f) => f.failure)).toEqual([]);
    expect(figures.map((f) => f.runs)).toEqual(figures.map(() => SHORT.fuzzRuns));
  });
});
