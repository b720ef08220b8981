import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { judge, type Figure } from '../lib/figure';
import { shippedModule } from '../lib/shipped-build';
import { summarize } from '../lib/stats';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const SERVERS = 10;
const MB = 1024 * 1024;
const MODES = ['bare', 'raw-0', 'raw', 'switchboard-0', 'switchboard', 'web-0'] as const;
type Mode = (typeof MODES)[number];

export interface ProbeOutput {
  mode: string;
  /** 500 ms after the servers are up, after a full gc. */
  rss: number;
  /** After 20 s idle, after a full gc. */
  steadyRss: number;
  servers?: number;
  /** switchboard-sandboxed: the bwrap processes below the probe, and their RSS. */
  helpers?: { count: number; rssMb: number };
}

/**
 * One probe process, the shipped build run with plain node for every mode: tsx's loader keeps the
 * source of every module it transformed, which charged the side that loads more code ~30 MB extra.
 */
export async function rssProbe(mode: Mode | 'switchboard-sandboxed'): Promise<ProbeOutput> {
  const script = fileURLToPath(shippedModule('rss-probe'));
  const { stdout } = await run(process.execPath, ['--expose-gc', script, mode], { cwd: join(script, '..'), timeout: 120_000 });
  const line = stdout.trim().split('\n').pop() ?? '';
  const out = JSON.parse(line) as ProbeOutput;
  const expected = mode.endsWith('-0') || mode === 'bare' ? undefined : SERVERS;
  if (expected !== undefined && out.servers !== expected) throw new Error(`rss probe ${mode}: ${out.servers} of ${expected} servers connected`);
  return out;
}

/**
 * Main-process RSS with 10 server-everything stdio servers connected, minus a bare process, per
 * server (servers' own processes are not counted), read twice in each process: just after connecting
 * and once idle. Switchboard's side loads the core alone (what the Electron shell's main process loads
 * of it); web mode's main process adds the web host, whose fixed cost is a row of its own. RSS is no
 * timing, so the probes of a run go side by side.
 */
export async function mainProcessRss(runs: number): Promise<Figure[]> {
  const samples = Object.fromEntries(MODES.map((m) => [m, [] as ProbeOutput[]])) as Record<Mode, ProbeOutput[]>;
  for (let i = 0; i < runs; i++) {
    const outs = await Promise.all(MODES.map((m) => rssProbe(m)));
    outs.forEach((out, j) => samples[MODES[j]!].push(out));
  }
  const median = (mode: Mode, key: 'rss' | 'steadyRss') => summarize(samples[mode].map((s) => s[key] / MB)).median;
  const perServer = (mode: Mode, key: 'rss' | 'steadyRss', minus: number) => summarize(samples[mode].map((s) => (s[key] / MB - minus) / SERVERS));
  const bare = { rss: median('bare', 'rss'), steadyRss: median('bare', 'steadyRss') };
  const work = (label: string, mode: Mode, key: 'rss' | 'steadyRss') => `${label}, ${SERVERS} connected (RSS median ${median(mode, key).toFixed(1)} MB)`;
  const fixed = (mode: Mode) => median(mode, 'steadyRss') - bare.steadyRss;
  const fixedStats = (mode: Mode) => summarize(samples[mode].map((s) => s.steadyRss / MB - bare.steadyRss));
  return [
    judge({
      id: 'rss-10-servers',
      title: `main-process RSS with ${SERVERS} stdio servers, minus a bare process, per server, idle`,
      unit: 'MB',
      target: { kind: 'ratio', max: 1.5 },
      raw: { stats: perServer('raw', 'steadyRss', bare.steadyRss), work: work('raw SDK Clients', 'raw', 'steadyRss') },
      switchboard: { stats: perServer('switchboard', 'steadyRss', bare.steadyRss), work: work('SwitchboardCore', 'switchboard', 'steadyRss') },
      note: `read after 20 s idle and a full gc (the JS engine gives back the pages connecting grew its heap by only once idle); Switchboard's process loads the core alone, as the Electron shell's main process does (not the web host, nor the bench's own harness); it has built the servers view (every tool's tokens counted, in a helper process that has exited); bare process ${bare.steadyRss.toFixed(1)} MB; code loaded with no server: raw ${fixed('raw-0').toFixed(1)} MB, Switchboard ${fixed('switchboard-0').toFixed(1)} MB, web mode (core + web host) ${fixed('web-0').toFixed(1)} MB`,
    }),
    judge({
      id: 'rss-10-servers-connected',
      title: `main-process RSS per server, 500 ms after connecting`,
      unit: 'MB',
      target: { kind: 'report' },
      raw: { stats: perServer('raw', 'rss', bare.rss), work: work('raw SDK Clients', 'raw', 'rss') },
      switchboard: { stats: perServer('switchboard', 'rss', bare.rss), work: work('SwitchboardCore', 'switchboard', 'rss') },
    }),
    judge({
      id: 'rss-10-servers-marginal',
      title: `main-process RSS each server adds (10 servers − none, same code loaded), idle`,
      unit: 'MB',
      target: { kind: 'report' },
      raw: { stats: perServer('raw', 'steadyRss', median('raw-0', 'steadyRss')), work: `raw: 10 Clients − the same process with none` },
      switchboard: { stats: perServer('switchboard', 'steadyRss', median('switchboard-0', 'steadyRss')), work: `SwitchboardCore: 10 servers − an empty servers.json` },
    }),
    judge({
      id: 'rss-fixed-code',
      title: `main-process RSS with no server connected, minus a bare process (the code loaded), idle`,
      unit: 'MB',
      target: { kind: 'report' },
      raw: { stats: fixedStats('raw-0'), work: `raw: the SDK's Client and stdio transport loaded, nothing connected` },
      switchboard: { stats: fixedStats('switchboard-0'), work: `SwitchboardCore started on an empty servers.json, servers view built (the Electron shell's main process)` },
    }),
    judge({
      id: 'rss-fixed-code-web',
      title: `… web mode: the core and its web host listening on 127.0.0.1, no browser connected`,
      unit: 'MB',
      target: { kind: 'report' },
      raw: { stats: fixedStats('raw-0'), work: `raw: as above` },
      switchboard: { stats: fixedStats('web-0'), work: `SwitchboardCore as above + startWebHost (src-main/web.ts's main process)` },
    }),
  ];
}
