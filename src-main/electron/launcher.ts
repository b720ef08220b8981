import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What finding the Electron binary came to: a runnable path, or one line saying why not. */
export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

const WEB_ALTERNATIVE = 'run `npm run web` to use Switchboard in your browser instead';

/** The directory holding our package.json: the app Electron is pointed at. */
export function findAppRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

/**
 * Asks the `electron` npm package for its binary. From Electron 42 on, requiring it downloads the
 * binary on first use and prints its own progress and stack traces; we do it in a child Node with
 * that chatter captured so a failure reaches the user as our one line, not a wall of text.
 */
export function resolveElectronBinary(appRoot: string, env: NodeJS.ProcessEnv = process.env): Promise<ElectronBinary> {
  let electronModule: string;
  try {
    electronModule = createRequire(join(appRoot, 'package.json')).resolve('electron');
  } catch {
    return Promise.resolve({ ok: false, reason: `the electron package is not installed (run \`npm install\`), or ${WEB_ALTERNATIVE}` });
  }
  // The path comes back on fd 3, since the package itself writes to stdout while downloading.
  const script = `const p = require(${JSON.stringify(electronModule)}); require('node:fs').writeSync(3, String(p));`;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', script], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe', 'pipe'], shell: false });
    const chatter: Buffer[] = [];
    const answer: Buffer[] = [];
    child.stdout!.on('data', (c: Buffer) => chatter.push(c));
    child.stderr!.on('data', (c: Buffer) => chatter.push(c));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => answer.push(c));
    child.on('error', (error) => resolve({ ok: false, reason: `could not run Node to locate Electron (${error.message}); ${WEB_ALTERNATIVE}` }));
    child.on('close', (code) => {
      const path = Buffer.concat(answer).toString('utf8');
      if (code === 0 && path) resolve(checkBinary(path, env));
      else resolve({ ok: false, reason: failureLine(Buffer.concat(chatter).toString('utf8')) });
    });
  });
}

function checkBinary(path: string, env: NodeJS.ProcessEnv): ElectronBinary {
  if (existsSync(path)) return { ok: true, path };
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) return { ok: false, reason: `ELECTRON_OVERRIDE_DIST_PATH is ${override}, but there is no Electron binary at ${path}; fix it, or ${WEB_ALTERNATIVE}` };
  return { ok: false, reason: `the Electron binary is missing (${path}); ${WEB_ALTERNATIVE}` };
}

function failureLine(chatter: string): string {
  // The first error line the download printed ("TypeError: fetch failed", an HTTP status…) says why.
  const cause = chatter.split('\n').map((l) => l.trim()).find((l) => /^\w*Error\b|^HTTPError|\bfailed\b/.test(l));
  const why = cause ? ` (${cause.slice(0, 160)})` : '';
  return `the Electron runtime could not be downloaded${why}; set ELECTRON_OVERRIDE_DIST_PATH to an Electron you have, or ${WEB_ALTERNATIVE}`;
}

/** Electron must never start as plain Node, whatever the user's shell has set. */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean = { ...env };
  delete clean.ELECTRON_RUN_AS_NODE;
  return clean;
}

const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs Electron on the app (no shell, stdio inherited), forwards our signals to it and
 * settles with its exit: a code, or the signal that ended it.
 */
export function runElectron(binary: string, appRoot: string, args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(binary, [appRoot, ...args], { stdio: 'inherit', env: childEnv(env), shell: false });
  const forwarders = FORWARDED_SIGNALS.map((signal) => {
    const forward = () => child.kill(signal);
    process.on(signal, forward);
    return () => process.off(signal, forward);
  });
  return new Promise((resolve) => {
    const done = (result: { code: number | null; signal: NodeJS.Signals | null }) => {
      for (const remove of forwarders) remove();
      resolve(result);
    };
    child.on('error', (error) => {
      process.stderr.write(`Switchboard: could not start Electron at ${binary}: ${error.message}\n`);
      done({ code: 1, signal: null });
    });
    child.on('exit', (code, signal) => done({ code, signal }));
  });
}
