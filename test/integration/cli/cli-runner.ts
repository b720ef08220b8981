import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(root, 'src-main/cli.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI as its own process, as a person does, with SWITCHBOARD_HOME at `home`; `input` goes to its stdin. */
export function runCli(home: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', cli, ...args],
      { cwd: root, env: { ...process.env, SWITCHBOARD_HOME: home, ...options.env }, timeout: 240_000 },
      (error, stdout, stderr) => done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}
