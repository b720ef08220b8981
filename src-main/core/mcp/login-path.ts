import { execFile } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { delimiter, isAbsolute, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import which from 'which';

const SHELL_ENV_TIMEOUT_MS = 5000;
let cached: Promise<string> | undefined;

/**
 * The PATH of the user's login shell, read once and cached: an app started from a dock or
 * a desktop launcher does not inherit it, so `npx` and friends would not be found.
 * Falls back to (and is merged with) this process's PATH if the shell is slow or fails.
 */
export function loginShellPath(): Promise<string> {
  cached ??= readLoginPath();
  return cached;
}

async function readLoginPath(): Promise<string> {
  const own = process.env.PATH ?? '';
  const fromShell = await Promise.race([
    shellPath(SHELL_ENV_TIMEOUT_MS).catch(() => ''),
    new Promise<string>((done) => setTimeout(() => done(''), SHELL_ENV_TIMEOUT_MS).unref()),
  ]);
  return mergePaths(fromShell, own);
}

// What shell-env did, without its dependencies: execa and its helpers stayed in the main process
// for good (~2.9 MB of its resident memory) to run one command once.
const MARKER = '_SWITCHBOARD_SHELL_ENV_';
/**
 * `env` between two markers, so whatever the startup files print is left out; `command` skips an alias
 * or function named env. The marker is printed in two halves: a shell may put the last word of the
 * previous command in `_`, and `env` would print the whole marker in the middle.
 */
const PRINT_ENV = `printf '%s%s' _SWITCHBOARD_ SHELL_ENV_; command env; printf '%s%s' _SWITCHBOARD_ SHELL_ENV_; exit`;
/** oh-my-zsh must not update itself or start tmux in a shell nobody sees. */
const QUIET_SHELL = { DISABLE_AUTO_UPDATE: 'true', ZSH_TMUX_AUTOSTARTED: 'true', ZSH_TMUX_AUTOSTART: 'false' };

/** The user's shell, then the usual POSIX ones (a non-POSIX shell such as nushell fails the command). */
function shellsToTry(): string[] {
  let own: string | undefined;
  try {
    own = userInfo().shell ?? undefined;
  } catch {
    own = undefined;
  }
  own ||= process.env.SHELL || (process.platform === 'darwin' ? '/bin/zsh' : '/bin/sh');
  return [...new Set([own, '/bin/zsh', '/bin/bash'])];
}

/** PATH as an interactive login shell sets it (`-ilc`), from the first shell that answers; '' if none does. */
export async function shellPath(timeoutMs: number, shells = shellsToTry()): Promise<string> {
  if (process.platform === 'win32') return '';
  for (const shell of shells) {
    const path = await pathFromShell(shell, timeoutMs);
    if (path !== undefined) return path;
  }
  return '';
}

function pathFromShell(shell: string, timeoutMs: number): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(shell, ['-ilc', PRINT_ENV], { env: { ...process.env, ...QUIET_SHELL }, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      const text = error ? '' : stripVTControlCharacters(stdout);
      const start = text.indexOf(MARKER);
      const end = text.lastIndexOf(MARKER);
      if (start === -1 || end === start) return done(undefined);
      const env = text.slice(start + MARKER.length, end);
      const line = env.split('\n').find((entry) => entry.startsWith('PATH='));
      done(line === undefined ? '' : line.slice('PATH='.length));
    });
  });
}

/** Join PATH strings, first occurrence wins, empty entries dropped. */
export function mergePaths(...paths: string[]): string {
  const seen = new Set<string>();
  for (const path of paths) for (const dir of path.split(delimiter)) if (dir) seen.add(dir);
  return [...seen].join(delimiter);
}

export type ResolvedCommand = { ok: true; path: string } | { ok: false; message: string };

/**
 * Find the executable a server's `command` names: a bare name on PATH, a path relative to
 * the server's cwd, or an absolute path. The message names the command and where we looked.
 */
export async function resolveCommand(command: string, path: string, cwd?: string): Promise<ResolvedCommand> {
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\'))) {
    const full = isAbsolute(command) ? command : resolve(cwd ?? process.cwd(), command);
    try {
      const info = await stat(full);
      if (!info.isFile()) return { ok: false, message: `command is not a file: ${full}` };
      await access(full, constants.X_OK);
      return { ok: true, path: full };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EACCES') return { ok: false, message: `command is not executable: ${full}` };
      return { ok: false, message: `command not found: ${full}` };
    }
  }
  const found = await which(command, { path, nothrow: true });
  if (found) return { ok: true, path: found };
  return { ok: false, message: `command not found: ${command} (PATH searched: ${path || '(empty)'})` };
}
