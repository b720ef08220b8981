import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const WEB_ENTRY = resolve('out/main/web.js');

export interface RunningWebApp {
  url: string;
  home: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts `npm run web`'s built entry on a fresh SWITCHBOARD_HOME and waits for the URL it prints.
 * `env` adds variables that name places in that home (e.g. SWITCHBOARD_POLICY, a policy file in the test's folder).
 */
export async function startWebApp(
  prepareHome: (home: string) => Promise<void> = async () => {},
  args: string[] = [],
  env: (home: string) => Record<string, string> = () => ({}),
): Promise<RunningWebApp> {
  const home = await mkdtemp(join(tmpdir(), 'switchboard-e2e-'));
  await prepareHome(home);
  const child = spawn(process.execPath, [WEB_ENTRY, ...args], {
    env: { ...process.env, SWITCHBOARD_HOME: home, ...env(home) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`web mode printed no URL within 20 s:\n${output}`)), 20_000);
    const check = () => {
      const match = /Switchboard is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`web mode exited with ${code} before printing its URL:\n${output}`));
    });
  });
  return { url, home, output: () => output, stop: () => stopChild(child, home) };
}

async function stopChild(child: ChildProcess, home: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await rm(home, { recursive: true, force: true });
}
