import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { judge, type Figure } from '../lib/figure';
import { REPO } from '../lib/servers';
import { interleave, summarize } from '../lib/stats';

const run = promisify(execFile);
const SERVERS = 10;
const MB = 1024 * 1024;

interface ProbeOutput {
  mode: string;
  rss: number;
  servers?: number;
}

/** One probe process, launched the same way for every mode (node --expose-gc --import tsx). */
async function probe(mode: 'bare' | 'raw' | 'switchboard'): Promise<ProbeOutput> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', join(REPO, 'bench/probes/rss-probe.ts'), mode], { cwd: REPO, timeout: 120_000 });
  const line = stdout.trim().split('\n').pop() ?? '';
  const out = JSON.parse(line) as ProbeOutput;
  if (mode !== 'bare' && out.servers !== SERVERS) throw new Error(`rss probe ${mode}: ${out.servers} of ${SERVERS} servers connected`);
  return out;
}

/**
 * Main-process RSS with 10 server-everything stdio servers connected (after gc), minus a bare
 * process launched the same way, per server; servers' own processes are not counted.
 */
export async function mainProcessRss(runs: number): Promise<Figure> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '-e', 'gc(); console.log(process.memoryUsage().rss)']);
  const plainNode = Number(stdout.trim()) / MB;
  const samples = await interleave(runs, {
    bare: async () => (await probe('bare')).rss / MB,
    raw: async () => (await probe('raw')).rss / MB,
    switchboard: async () => (await probe('switchboard')).rss / MB,
  });
  const bare = summarize(samples.bare).median;
  const perServer = (values: number[]) => values.map((v) => (v - bare) / SERVERS);
  return judge({
    id: 'rss-10-servers',
    title: `main-process RSS with ${SERVERS} stdio servers, minus a bare process, per server`,
    unit: 'MB',
    target: { kind: 'report' },
    raw: { stats: summarize(perServer(samples.raw)), work: `raw SDK Clients, ${SERVERS} connected (RSS median ${summarize(samples.raw).median.toFixed(1)} MB)` },
    switchboard: { stats: summarize(perServer(samples.switchboard)), work: `SwitchboardCore, ${SERVERS} connected (RSS median ${summarize(samples.switchboard).median.toFixed(1)} MB)` },
    note: `bare process (same launch: node --import tsx) ${bare.toFixed(1)} MB; plain node ${plainNode.toFixed(1)} MB; the difference includes the code each side loads`,
  });
}
