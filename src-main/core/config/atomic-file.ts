import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Write a whole file or nothing: a temp file in the same directory, flushed to disk, then
 * renamed over the target (rename is atomic within one file system). Mode 0600: these files
 * may name secrets' keys, trust decisions and commands.
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (!swept.has(path)) {
    swept.add(path);
    await sweepInterruptedWrites(dir, basename(path));
  }
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.chmod(0o600); // the umask cannot widen it, but make the mode exact whatever it is
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncDirectory(dir);
}

/** Targets whose leftovers this process has already looked for. */
const swept = new Set<string>();

/**
 * A process killed between creating its temp file and the rename leaves ".<name>.<pid>.<hex>.tmp"
 * behind. The first write of a file in a process removes those of writers that are gone (never
 * another live process's write under way).
 */
async function sweepInterruptedWrites(dir: string, name: string): Promise<void> {
  const prefix = `.${name}.`;
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const writer = /^(\d+)\.[0-9a-f]{12}\.tmp$/.exec(entry.slice(prefix.length));
    if (writer && !processAlive(Number(writer[1]))) await rm(join(dir, entry), { force: true });
  }
}

function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, someone else's
  }
}

/** Flush the directory entry so the rename itself survives a crash (not possible on Windows). */
async function syncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A file's content version: its SHA-256, or "missing" when it does not exist. */
export type FileVersion = string;
export const MISSING: FileVersion = 'missing';

export const versionOf = (text: string | undefined): FileVersion =>
  text === undefined ? MISSING : createHash('sha256').update(text, 'utf8').digest('hex');

/** Read a text file; undefined when it does not exist (any other failure is thrown). */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export type JsonFileRead<T> = { kind: 'missing' } | { kind: 'ok'; value: T } | { kind: 'invalid'; error: string };

/** Read a JSON file and check it against a schema; a missing file is not an error, anything unreadable is. */
export async function readJsonFile<T>(path: string, schema: { safeParse(data: unknown): { success: true; data: T } | { success: false; error: unknown } }): Promise<JsonFileRead<T>> {
  let text: string | undefined;
  try {
    text = await readTextIfExists(path);
  } catch (error) {
    return { kind: 'invalid', error: String(error) };
  }
  if (text === undefined) return { kind: 'missing' };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { kind: 'invalid', error: String(error) };
  }
  const parsed = schema.safeParse(data);
  return parsed.success ? { kind: 'ok', value: parsed.data } : { kind: 'invalid', error: String(parsed.error) };
}
