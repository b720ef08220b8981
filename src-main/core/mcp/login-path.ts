import { execFile } from 'node:child_process';
import { access, constants, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { getPriority, setPriority } from 'node:os';
import { delimiter, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import which from 'which';

const SHELL_ENV_TIMEOUT_MS = 5000;
/** Niceness added to a read nothing waits for (saved-login-path.ts): the shell's startup files yield to the app. */
const BACKGROUND_NICENESS = 10;
let cached: Promise<string> | undefined;

/** Gives the PATH to resolve and launch commands with; `fresh`, if there, reads the login shell as it is now. */
export type LoginPathSource = (() => Promise<string>) & { fresh?: () => Promise<string> };

/**
 * The PATH of the user's login shell, read once and cached: an app started from a dock or
 * a desktop launcher does not inherit it, so `npx` and friends would not be found.
 * Falls back to (and is merged with) this process's PATH if the shell is slow or fails.
 */
export function loginShellPath(): Promise<string> {
  cached ??= readShellPath().then((fromShell) => mergePaths(fromShell, process.env.PATH ?? ''));
  return cached;
}

/** The login shell's own PATH; '' if the shell fails or takes over 5 s. */
export function readShellPath(background = false): Promise<string> {
  return Promise.race([
    shellPath(SHELL_ENV_TIMEOUT_MS, undefined, background).catch(() => ''),
    new Promise<string>((done) => setTimeout(() => done(''), SHELL_ENV_TIMEOUT_MS).unref()),
  ]);
}

// shell-env runs the login shell through execa, whose modules (~2.9 MB) would stay loaded in main for
// a read done once: it runs in a short-lived Node child instead. Not in Electron, whose fuses forbid
// running its binary as Node (SECURITY R7): there it loads in this process.
const READ_PATH = `import(process.argv[1]).then(({ shellEnv }) => shellEnv(process.argv[2])).then((env) => process.stdout.write(env.PATH ?? ''))`;

/**
 * PATH as the user's login shell sets it (or `shell`'s), read by shell-env; '' if that shell fails or
 * outlives `timeoutMs`. shell-env answers this process's own environment when the user's shell fails.
 */
export async function shellPath(timeoutMs: number, shell?: string, background = false): Promise<string> {
  if (process.versions.electron) {
    const { shellEnv } = await import('shell-env');
    return (await shellEnv(shell)).PATH ?? '';
  }
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('shell-env')).href;
  return new Promise((done) => {
    const child = execFile(process.execPath, ['-e', READ_PATH, entry, ...(shell ? [shell] : [])], { timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 }, (error, stdout) =>
      done(error ? '' : stdout),
    );
    // Set before the child starts the shell (Node takes longer than this to boot), so the shell inherits it.
    if (background && child.pid !== undefined) {
      try {
        setPriority(child.pid, Math.min(19, getPriority() + BACKGROUND_NICENESS));
      } catch {
        // A platform that refuses it reads at normal priority.
      }
    }
  });
}

/** Join PATH strings, first occurrence wins, empty entries dropped. */
export function mergePaths(...paths: string[]): string {
  const seen = new Set<string>();
  for (const path of paths) for (const dir of path.split(delimiter)) if (dir) seen.add(dir);
  return [...seen].join(delimiter);
}

export type ResolvedCommand = { ok: true; path: string } | { ok: false; message: string; notOnPath?: true };

/**
 * `command` resolved on the login PATH, and the PATH it was resolved on (the launch uses the same one).
 * A bare name missing from it is looked for again on the login shell's PATH as it is now, when the
 * source can read that: the PATH it gave may be last run's.
 */
export async function resolveOnLoginPath(command: string, loginPath: LoginPathSource, cwd?: string): Promise<{ resolved: ResolvedCommand; path: string }> {
  const path = await loginPath();
  const resolved = await resolveCommand(command, path, cwd);
  if (resolved.ok || !resolved.notOnPath || !loginPath.fresh) return { resolved, path };
  const freshPath = await loginPath.fresh();
  return freshPath === path ? { resolved, path } : { resolved: await resolveCommand(command, freshPath, cwd), path: freshPath };
}

/**
 * Find the executable a server's `command` names: a bare name on PATH, a path relative to
 * the server's cwd, or an absolute path. The message names the command and where we looked.
 */
export async function resolveCommand(command: string, path: string, cwd?: string): Promise<ResolvedCommand> {
  const resolved = await resolveWord(command, path, cwd);
  // A whole command line in "command" (`npx -y @scope/pkg`): its "/" made it a path under the cwd, which
  // named Switchboard's own folder (issue 23 item 2). Name the mistake instead. A path with spaces
  // (`/opt/My App/server`) is still a path: its first word is a path that names no program.
  const [first, ...rest] = command.trim().split(/\s+/);
  if (resolved.ok || rest.length === 0 || resolved.message.startsWith('command is not')) return resolved;
  if (/[/\\]/.test(first!) && !(await resolveWord(first!, path, cwd)).ok) return resolved;
  return { ok: false, message: `command not found: "${command}" is a whole command line; "command" takes only the program (${first}), "args" the rest` };
}

async function resolveWord(command: string, path: string, cwd?: string): Promise<ResolvedCommand> {
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
  return { ok: false, message: `command not found: ${command} (PATH searched: ${path || '(empty)'})`, notOnPath: true };
}
