import { join } from 'node:path';
import Conf from 'conf';
import type { SettingsStore } from '../core/ports';

/**
 * The SettingsStore port on settings.json in the data home. Built on Conf, the store electron-store
 * extends: electron-store adds only a userData default (we always pass the data home) and renderer
 * IPC (we expose none), and its import of 'electron' would keep this adapter out of plain Node,
 * where web mode and the CLI share the same file.
 */
export class FileSettingsStore implements SettingsStore {
  private readonly file: Conf<Record<string, unknown>>;

  constructor(home: string) {
    try {
      this.file = new Conf<Record<string, unknown>>({
        cwd: home,
        configName: 'settings',
        // Keys are literal: a server name with dots ("my.server") stays one key, not a nested path.
        accessPropertiesByDotNotation: false,
        // A settings file we cannot read is reported, never silently replaced.
        clearInvalidConfig: false,
      });
    } catch (error) {
      throw new Error(`cannot read the settings file ${join(home, 'settings.json')}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  get path(): string {
    return this.file.path;
  }

  get<T>(key: string): T | undefined {
    return this.file.get(key) as T | undefined;
  }

  set(key: string, value: unknown): void {
    // Conf refuses undefined; storing "nothing" means forgetting the key.
    if (value === undefined) this.file.delete(key);
    else this.file.set(key, value);
  }

  delete(key: string): void {
    this.file.delete(key);
  }
}
