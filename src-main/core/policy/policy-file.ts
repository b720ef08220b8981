import { existsSync, lstatSync, readFileSync, statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { policySchema, type Policy } from './policy-schema';

/** Where an administrator puts the policy; SWITCHBOARD_POLICY names another file where there is none (tests, images being built). */
export function policyPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, exists: (path: string) => boolean = managedFileExists): string {
  const managed = platform === 'darwin' ? '/Library/Application Support/Switchboard/policy.json' : platform === 'win32' ? join(env.ProgramData || 'C:\\ProgramData', 'Switchboard', 'policy.json') : '/etc/switchboard/policy.json';
  const override = env.SWITCHBOARD_POLICY?.trim();
  // The variable names another file only where the organization's is absent (tests, an image being built):
  // on a managed machine nobody steps around the policy by setting it.
  return override && !exists(managed) ? override : managed;
}

/** Looked for once per process: the path is asked for on every tool call, and a managed file is put there before the app runs. */
const managedSeen = new Map<string, boolean>();
function managedFileExists(path: string): boolean {
  let seen = managedSeen.get(path);
  if (seen === undefined) managedSeen.set(path, (seen = existsSync(path)));
  return seen;
}

/**
 * The policy as it stands on disk (SECURITY X2): none (no file), a valid one, or broken — and broken
 * refuses everything the policy governs (fail closed), with the reason, never a half-read policy.
 */
export type PolicyState =
  | { kind: 'none' }
  | { kind: 'active'; path: string; policy: Policy }
  | { kind: 'broken'; path: string; reason: string };

export async function readPolicy(path: string = policyPath()): Promise<PolicyState> {
  try {
    return parsePolicy(path, await readFile(path, 'utf8'));
  } catch (error) {
    return unreadable(path, error);
  }
}

/** The last file read synchronously, by what its stat said then. */
let lastRead: { path: string; ino: number; size: number; mtimeMs: number; ctimeMs: number; state: PolicyState; racy: boolean } | undefined;
/** A file changed this close to its read may change again with the same stat (timestamps of a second or two on some file systems): read it again. */
const RACY_MS = 3000;

/** A state kept between reads while a watch on the file's folder stays quiet. */
let held: { path: string; watcher: FSWatcher; state: PolicyState; readAt: number } | undefined;
/** A path whose folder could not be watched (no inotify watches left, say): it is read by its stat each time until then. */
let unwatchable: { path: string; until: number } | undefined;
/** Held at most this long without a stat, for a change the watch cannot hear (a folder above renamed, a network file system). */
const RECHECK_MS = 1000;

/**
 * The same, for what is decided synchronously (every tool call's approval, the servers view), without a
 * system call per tool call: what was read is kept while a watch on the file's folder (or, while that does
 * not exist yet, its nearest existing ancestor) reports nothing of it, so a change on disk takes effect with the
 * first read after the OS reports it (SECURITY X2). A change no watch hears (a folder above renamed, a
 * network file system) is found by a stat at least every `recheckMs`. A file that is a symbolic link (its
 * target may change in a folder nobody watches), or a folder that cannot be watched, is stat'ed on every read.
 */
export function readPolicySync(path: string = policyPath(), { recheckMs = RECHECK_MS }: { recheckMs?: number } = {}): PolicyState {
  const kept = held;
  if (kept?.path === path && performance.now() - kept.readAt < recheckMs) return kept.state;
  // A fresh watch each time, set before the read: a change made after the read is always heard, and a watch
  // left on a folder renamed away is not kept.
  if (kept) dropHeld(kept.watcher);
  const watcher = watchFolder(path);
  const state = readByStat(path);
  if (watcher && !isSymbolicLink(path)) held = { path, watcher, state, readAt: performance.now() };
  else watcher?.close();
  return state;
}

function watchFolder(path: string): FSWatcher | undefined {
  if (unwatchable?.path === path && performance.now() < unwatchable.until) return undefined;
  let folder = dirname(path);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  // What may change the file: its own name (or the folder on the way to it), and the watched folder itself going away.
  const names = new Set([relative(folder, path).split(sep)[0], basename(folder)]);
  try {
    // No name (some platforms) means "something here changed": read again to be safe.
    const watcher = watch(folder, { persistent: false }, (_event, name) => {
      if (name === null || names.has(name.toString())) dropHeld(watcher);
    });
    watcher.on('error', () => dropHeld(watcher));
    return watcher;
  } catch {
    unwatchable = { path, until: performance.now() + RECHECK_MS };
    return undefined;
  }
}

/** Forgets the held state (only if `watcher` is still the one holding it) and stops its watch. */
function dropHeld(watcher: FSWatcher): void {
  if (held?.watcher === watcher) held = undefined;
  watcher.close();
}

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/** A stat, and the file read and parsed again only when its stat changed. */
function readByStat(path: string): PolicyState {
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return unreadable(path, error);
  }
  if (!stat) return { kind: 'none' };
  const { ino, size, mtimeMs, ctimeMs } = stat;
  const last = lastRead;
  if (last && last.path === path && last.ino === ino && last.size === size && last.mtimeMs === mtimeMs && last.ctimeMs === ctimeMs && !last.racy) return last.state;
  let state: PolicyState;
  try {
    state = parsePolicy(path, readFileSync(path, 'utf8'));
  } catch (error) {
    state = unreadable(path, error);
  }
  lastRead = { path, ino, size, mtimeMs, ctimeMs, state, racy: Date.now() - Math.max(mtimeMs, ctimeMs) < RACY_MS };
  return state;
}

function unreadable(path: string, error: unknown): PolicyState {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
  return { kind: 'broken', path, reason: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
}

function parsePolicy(path: string, text: string): PolicyState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'broken', path, reason: `${path} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = policySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || '(top level)';
    return { kind: 'broken', path, reason: `${path}: "${field}" ${issue.message}` };
  }
  return { kind: 'active', path, policy: parsed.data };
}
