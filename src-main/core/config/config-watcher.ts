import { existsSync, watch, type FSWatcher } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import type { FileVersion } from './atomic-file';
import { loadConfig, type LoadedConfig } from './load-config';

export interface ConfigWatcherOptions {
  home: string;
  /** Fixed project folders; when omitted the list in projects.json is used (and watched). */
  projectDirs?: string[];
  /** Gets every new config: the initial one from start(), then each change. The manager applies it as a diff. */
  onChange: (loaded: LoadedConfig) => void | Promise<void>;
  /** A failure in a reload or in onChange; the watcher keeps going. */
  onError?: (error: unknown) => void;
  /** Quiet time after the last file event before reloading; editors save in several steps. */
  debounceMs?: number;
  /**
   * How long a file that read as empty right after listing servers may stay so before that counts (the
   * person emptied it): the rest of an editor's save normally arrives as a change event well before.
   */
  settleMs?: number;
}

/**
 * Watches every file loadConfig consulted, missing ones included (creating one is a change),
 * and hands each new LoadedConfig to onChange. It watches directories, not files, because
 * editors and our own writer replace files by rename. A file that became invalid keeps its
 * last good servers (see LoadConfigOptions.previous); no file is ever written here.
 */
export class ConfigWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /** directory -> names in it that lead to a watched file. */
  private interest = new Map<string, Set<string>>();
  private last: LoadedConfig | undefined;
  private lastKey = '';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<LoadedConfig> | undefined;
  private again = false;
  private stopped = false;
  /** Empty reads to confirm on the next load (LoadConfigOptions.settled), once they stayed for settleMs. */
  private confirming: Record<string, FileVersion> = {};
  private settleTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ConfigWatcherOptions) {}

  /** Load, call onChange with the result, and start watching. */
  async start(): Promise<LoadedConfig> {
    this.stopped = false;
    return this.reload();
  }

  /** The config last handed to onChange. */
  current(): LoadedConfig | undefined {
    return this.last;
  }

  /** Directories being watched (for diagnostics and tests). */
  watching(): string[] {
    return [...this.watchers.keys()].sort();
  }

  /**
   * Reload now (after our own write, say). Reloads never overlap: a request during one runs once
   * more after it. onChange is skipped when nothing the manager sees has changed.
   */
  reload(): Promise<LoadedConfig> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.reloadLoop().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.settleTimer);
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.interest.clear();
  }

  private async reloadLoop(): Promise<LoadedConfig> {
    let loaded: LoadedConfig;
    do {
      this.again = false;
      const previous = this.last;
      const settled = this.confirming;
      this.confirming = {};
      loaded = await loadConfig({
        home: this.options.home,
        ...(this.options.projectDirs ? { projectDirs: this.options.projectDirs } : {}),
        ...(previous ? { previous } : {}),
        settled,
      });
      if (this.stopped) return loaded;
      this.watchFiles(loaded.files);
      this.settleLater(loaded.unsettled ?? {});
      const key = JSON.stringify([loaded.servers, loaded.shadowed, loaded.problems, loaded.mcpDisabled]);
      this.last = loaded;
      if (key !== this.lastKey || !previous) {
        this.lastKey = key;
        try {
          await this.options.onChange(loaded);
        } catch (error) {
          this.options.onError?.(error);
        }
      }
    } while (this.again && !this.stopped);
    return loaded;
  }

  /**
   * A file read as empty mid-save is read again when its next change event comes (the rest of the save);
   * if none comes within settleMs, the empty file is what the person meant and the next load applies it.
   */
  private settleLater(unsettled: Record<string, FileVersion>): void {
    clearTimeout(this.settleTimer);
    if (Object.keys(unsettled).length === 0 || this.stopped) return;
    this.settleTimer = setTimeout(() => {
      this.confirming = unsettled;
      this.reload().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.settleMs ?? 1000);
    this.settleTimer.unref();
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.reload().catch((error: unknown) => this.options.onError?.(error));
    }, this.options.debounceMs ?? 100);
    this.timer.unref(); // watching alone never keeps a CLI run alive
  }

  /** Watch the nearest existing directory of each file, so a missing .vscode/ appearing is seen too. */
  private watchFiles(files: string[]): void {
    const interest = new Map<string, Set<string>>();
    for (const file of files) {
      let dir = dirname(file);
      while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
      const first = relative(dir, file).split(sep)[0]!;
      let names = interest.get(dir);
      if (!names) interest.set(dir, (names = new Set()));
      names.add(first);
    }
    this.interest = interest;
    for (const [dir, watcher] of this.watchers) {
      if (!interest.has(dir)) {
        watcher.close();
        this.watchers.delete(dir);
      }
    }
    let added = false;
    for (const dir of interest.keys()) {
      if (this.watchers.has(dir)) continue;
      added = true;
      try {
        const watcher = watch(dir, { persistent: false }, (_event, name) => {
          // No name (some platforms) means "something here changed": reload to be safe.
          if (name === null || this.interest.get(dir)?.has(name.toString())) this.schedule();
        });
        watcher.on('error', () => {
          // The directory went away: forget it and let a reload find the nearest one that exists.
          watcher.close();
          this.watchers.delete(dir);
          this.schedule();
        });
        this.watchers.set(dir, watcher);
      } catch (error) {
        this.options.onError?.(error);
      }
    }
    // A file written between our read and the new watch would go unseen: look once more.
    if (added && this.last) this.schedule();
  }
}
