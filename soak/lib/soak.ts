import { runFuzz, type FuzzFigure } from '../fuzz/run-fuzz';
import { runChaosSoak, type ChaosFigures, type ChaosSoakOptions } from './chaos-soak';
import { FULL_FLEET } from './fleet';
import { runPowerCut, type PowerCutFigures } from './power-cut';

export interface SoakProfile {
  name: 'full' | 'short';
  chaos: ChaosSoakOptions;
  powerCuts: number;
  fuzzRuns: number;
}

/**
 * `npm run soak`: 10 stdio + 2 HTTP servers, 30 rounds of 100 calls, a kill every 7 s, a session drop
 * every 35 s; 20 power cuts; 1,000 inputs per fuzzed parser. About 2 minutes on a quiet 2-core machine,
 * 7 at a load of 25.
 */
export const FULL: SoakProfile = {
  name: 'full',
  chaos: {
    shape: FULL_FLEET,
    rounds: 30,
    callsPerRound: 100,
    pauseMs: 1000,
    // 5 victims in turn, one every 7 s: each is killed every 35 s, 4 times in 2 minutes at most,
    // under the crash-loop limit (5 in 2 minutes), so every kill must end in a reconnect.
    chaos: { killEveryMs: 7000, dropEveryMs: 35_000 },
    conversations: 5,
    quietMs: 6000,
  },
  powerCuts: 20,
  fuzzRuns: 1000,
};

/** Inside `npm test`: a few seconds of the same checks. */
export const SHORT: SoakProfile = {
  name: 'short',
  chaos: {
    shape: { victims: 1, healthyEverything: 1, faultFixtures: true, http: false },
    rounds: 2,
    callsPerRound: 30,
    pauseMs: 0,
    chaos: { killEveryMs: 0, dropEveryMs: 0 },
    killAtRound: 1,
    conversations: 2,
    // No HTTP server in this profile: no pooled connection to wait out.
    quietMs: 1000,
  },
  powerCuts: 2,
  fuzzRuns: 25,
};

export interface SoakReport {
  profile: SoakProfile['name'];
  chaos: ChaosFigures;
  powerCut: PowerCutFigures;
  fuzz: FuzzFigure[];
  seconds: { chaos: number; powerCut: number; fuzz: number };
}

export async function runSoak(profile: SoakProfile, log: (line: string) => void = () => {}): Promise<SoakReport> {
  const timed = async <T>(label: string, work: () => Promise<T>): Promise<[T, number]> => {
    log(`${label}…`);
    const started = performance.now();
    const value = await work();
    const seconds = (performance.now() - started) / 1000;
    log(`${label}: ${seconds.toFixed(1)} s`);
    return [value, seconds];
  };
  const [chaos, chaosSeconds] = await timed('calls under chaos', () => runChaosSoak(profile.chaos));
  const [powerCut, powerCutSeconds] = await timed('power cuts', () => runPowerCut(profile.powerCuts));
  const [fuzz, fuzzSeconds] = await timed('fuzz', () => runFuzz(profile.fuzzRuns));
  return { profile: profile.name, chaos, powerCut, fuzz, seconds: { chaos: chaosSeconds, powerCut: powerCutSeconds, fuzz: fuzzSeconds } };
}
