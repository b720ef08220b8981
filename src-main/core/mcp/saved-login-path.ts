import { readTextIfExists, writeFileAtomic } from '../config/atomic-file';
import { mergePaths, readShellPath, type LoginPathSource } from './login-path';

const REFRESH_AFTER_MS = 10_000;

interface SavedPath {
  shell: string;
  path: string;
}

export interface SavedLoginPathOptions {
  /** Where the last PATH read from the login shell is kept (not a secret: the directories of the user's PATH). */
  file: string;
  /** Reads the login shell's PATH; `background` when nothing waits for it. */
  read?: (background: boolean) => Promise<string>;
  refreshAfterMs?: number;
}

/**
 * The login PATH without waiting for the login shell at every start: reading it runs the user's shell
 * startup files (here about 1 s of CPU with pyenv's), which competed with everything else at start.
 * The first start reads it and keeps it; later starts use the kept one at once and read the shell again
 * a little later at low priority. A command missing from the kept PATH is looked for on the shell's
 * PATH as it is now (`fresh`), so a newly installed tool is found without waiting for that read.
 */
export function savedLoginPath(options: SavedLoginPathOptions): LoginPathSource {
  const read = options.read ?? readShellPathOnce;
  const shell = process.env.SHELL ?? '';
  const own = process.env.PATH ?? '';
  let fresh: Promise<string> | undefined;
  let current: Promise<string> | undefined;
  let kept: string | undefined;

  const readAndSave = (background: boolean): Promise<string> => {
    fresh ??= read(background).then(async (fromShell) => {
      // An empty answer is a shell that failed or timed out: what was kept stays in use.
      if (!fromShell) return kept ?? own;
      await writeFileAtomic(options.file, `${JSON.stringify({ shell, path: fromShell } satisfies SavedPath)}\n`).catch(() => {});
      const path = mergePaths(fromShell, own);
      current = Promise.resolve(path);
      return path;
    });
    return fresh;
  };

  const load = async (): Promise<string> => {
    const saved = parseSaved(await readTextIfExists(options.file).catch(() => undefined));
    if (!saved || saved.shell !== shell) return readAndSave(false);
    setTimeout(() => void readAndSave(true), options.refreshAfterMs ?? REFRESH_AFTER_MS).unref();
    kept = mergePaths(saved.path, own);
    return kept;
  };

  const source = () => (current ??= load());
  source.fresh = async () => {
    await source();
    return readAndSave(false);
  };
  return source;
}

let shellRead: Promise<string> | undefined;

/** One read of the login shell per process, however many cores it makes (the bench, tests). */
function readShellPathOnce(background: boolean): Promise<string> {
  shellRead ??= readShellPath(background);
  return shellRead;
}

function parseSaved(text: string | undefined): SavedPath | undefined {
  if (text === undefined) return undefined;
  try {
    const value = JSON.parse(text) as Partial<SavedPath>;
    return typeof value.shell === 'string' && typeof value.path === 'string' && value.path ? { shell: value.shell, path: value.path } : undefined;
  } catch {
    return undefined;
  }
}
