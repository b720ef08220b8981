// `npm run soak`: the core under chaos, power cuts and fuzz (soak/lib/soak.ts says what runs).
// Prints the figures and writes soak/results/latest.json; exits 1 when any check fails.
// Options: --short runs the profile `npm test` runs (written to soak/results/short.json).
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderReport, verdicts } from './lib/report';
import { FULL, runSoak, SHORT } from './lib/soak';

// Without it the memory check would compare RSS that V8 has not settled (soak/lib/memory.ts).
if (!(globalThis as { gc?: unknown }).gc) throw new Error('run the soak with node --expose-gc (npm run soak does)');
const { values } = parseArgs({ options: { short: { type: 'boolean', default: false } } });
const profile = values.short ? SHORT : FULL;
const loadBefore = loadavg()[0]!;
const started = Date.now();
const report = await runSoak(profile, (line) => process.stderr.write(`soak: ${line}\n`));
const checks = verdicts(report);
process.stdout.write(renderReport(report));
const out = join(dirname(fileURLToPath(import.meta.url)), 'results', values.short ? 'short.json' : 'latest.json');
await mkdir(dirname(out), { recursive: true });
const machine = { node: process.version, cores: cpus().length, loadBefore, loadAfter: loadavg()[0], date: new Date().toISOString(), seconds: (Date.now() - started) / 1000 };
await writeFile(out, `${JSON.stringify({ machine, verdicts: checks, ...report }, null, 1)}\n`);
process.stdout.write(`\nwritten to ${out} (${machine.seconds.toFixed(0)} s; load ${loadBefore.toFixed(1)} → ${machine.loadAfter!.toFixed(1)} on ${machine.cores} cores)\n`);
process.exitCode = checks.every((c) => c.pass) ? 0 : 1;
