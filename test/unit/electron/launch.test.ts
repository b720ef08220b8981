import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The launch module run for real (through tsx, so no stale build is tested), with the real electron package.
const appRoot = resolve(import.meta.dirname, '../../..');
const launchModule = join(appRoot, 'src-main/electron/launch.ts');
const temps: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'switchboard-launch-'));
  temps.push(dir);
  return dir;
};
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function launch(env: NodeJS.ProcessEnv, args: string[] = [], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void, entry = ['--import', 'tsx', launchModule]): Promise<Run> {
  const child = spawn(process.execPath, [...entry, ...args], { cwd: appRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    onStdout?.(stdout, child);
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) => child.on('close', (code, signal) => done({ code, signal, stdout, stderr })));
}

/** The environment with nothing that would steer the electron package somewhere we did not choose. */
function baseEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^(npm_config_electron_|ELECTRON_)/i.test(key)) delete env[key];
  return env;
}

const pathFile = join(appRoot, 'node_modules/electron/path.txt');
const binaryInstalled = existsSync(pathFile) && existsSync(join(appRoot, 'node_modules/electron/dist', readFileSync(pathFile, 'utf8')));
if (binaryInstalled) console.info('launch.test: the Electron binary is installed here, so the "download fails" case is skipped');

function fakeElectron(body: string): string {
  const dir = tempDir();
  const bin = join(dir, 'electron');
  writeFileSync(bin, `#!${process.execPath}\n${body}\n`);
  chmodSync(bin, 0o755);
  return dir;
}

describe('npm start launcher', () => {
  it.skipIf(binaryInstalled)('prints one line naming `npm run web` and exits 1 when the Electron binary cannot be downloaded', async () => {
    // A mirror on a closed loopback port and an empty cache make the download fail here and anywhere else.
    const env = { ...baseEnv(), ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: tempDir() };
    const run = await launch(env);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Switchboard: the Electron runtime could not be downloaded \(.+\); set ELECTRON_OVERRIDE_DIST_PATH to an Electron you have, or run `npm run web` to use Switchboard in your browser instead$/);
    expect(existsSync(pathFile)).toBe(false);
  });

  it('prints one line naming the variable and `npm run web` when ELECTRON_OVERRIDE_DIST_PATH holds no Electron', async () => {
    const empty = tempDir();
    const run = await launch({ ...baseEnv(), ELECTRON_OVERRIDE_DIST_PATH: empty });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `Switchboard: ELECTRON_OVERRIDE_DIST_PATH is ${empty}, but there is no Electron binary at ${join(empty, 'electron')}; fix it, or run \`npm run web\` to use Switchboard in your browser instead\n`,
    );
  });

  it('runs the Electron binary on the app root with the extra arguments, without ELECTRON_RUN_AS_NODE, and exits with its code', async () => {
    const dist = fakeElectron(`console.log(JSON.stringify({ argv: process.argv.slice(2), runAsNode: process.env.ELECTRON_RUN_AS_NODE ?? null })); process.exit(7);`);
    const run = await launch({ ...baseEnv(), ELECTRON_OVERRIDE_DIST_PATH: dist, ELECTRON_RUN_AS_NODE: '1' }, ['--inspect-nothing']);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ argv: [appRoot, '--inspect-nothing'], runAsNode: null });
    expect(run.code).toBe(7);
  });

  it('forwards SIGTERM to Electron and exits with the code Electron exits with', async () => {
    const dist = fakeElectron(`process.on('SIGTERM', () => { console.log('electron got SIGTERM'); process.exit(3); }); console.log('ready'); setInterval(() => {}, 1000);`);
    let signalled = false;
    const run = await launch({ ...baseEnv(), ELECTRON_OVERRIDE_DIST_PATH: dist }, [], (text, child) => {
      if (!signalled && text.includes('ready')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    expect(run.stdout).toBe('ready\nelectron got SIGTERM\n');
    expect(run.code).toBe(3);
  });

  it('ends itself with the same signal when a signal ends Electron', async () => {
    const dist = fakeElectron(`console.log('ready'); setInterval(() => {}, 1000);`);
    let signalled = false;
    const run = await launch({ ...baseEnv(), ELECTRON_OVERRIDE_DIST_PATH: dist }, [], (text, child) => {
      if (!signalled && text.includes('ready')) {
        signalled = true;
        child.kill('SIGTERM');
      }
    });
    expect(run.stdout).toBe('ready\n');
    expect(run.signal).toBe('SIGTERM');
  });
});

// npm start runs the bundle electron-vite builds; npm test builds it first, so this runs there.
const builtLauncher = join(appRoot, 'out/main/launch.js');
const launcherSources = ['src-main/electron/launch.ts', 'src-main/electron/launcher.ts'].map((p) => statSync(join(appRoot, p)).mtimeMs);
const builtFresh = existsSync(builtLauncher) && statSync(builtLauncher).mtimeMs >= Math.max(...launcherSources);
if (!builtFresh) console.info('launch.test: out/main/launch.js is missing or older than its source; run `npx electron-vite build` (npm test does) to check it');

describe.skipIf(binaryInstalled || !builtFresh)('node out/main/launch.js (the built npm start)', () => {
  it('prints the same one line and exits 1 where the Electron binary cannot be fetched', async () => {
    const env = { ...baseEnv(), ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_config_cache: tempDir() };
    const run = await launch(env, [], undefined, [builtLauncher]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^Switchboard: the Electron runtime could not be downloaded \(.+\); set ELECTRON_OVERRIDE_DIST_PATH to an Electron you have, or run `npm run web` to use Switchboard in your browser instead\n$/);
  });
});
