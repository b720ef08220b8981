import { execFile } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { delimiter, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
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

// shell-env runs the login shell through execa, whose modules (~2.9 MB) would stay loaded in main for
// a read done once: it runs in a short-lived Node child instead. Not in Electron, whose fuses forbid
// running its binary as Node (SECURITY R7): there it loads in this process.
const READ_PATH = `import(process.argv[1]).then(({ shellEnv }) => shellEnv(process.argv[2])).then((env) => process.stdout.write(env.PATH ?? ''))`;

/**
 * PATH as the user's login shell sets it (or `shell`'s), read by shell-env; '' if that shell fails or
 * outlives `timeoutMs`. shell-env answers this process's own environment when the user's shell fails.
 */
export async function shellPath(timeoutMs: number, shell?: string): Promise<string> {
  if (process.versions.electron) {
    const { shellEnv } = await import('shell-env');
    return (await shellEnv(shell)).PATH ?? '';
  }
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('shell-env')).href;
  return new Promise((done) => {
    execFile(process.execPath, ['-e', READ_PATH, entry, ...(shell ? [shell] : [])], { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 }, (error, stdout) => done(error ? '' : stdout));
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
