import { join } from 'node:path';
import Conf, { type Options } from 'conf';
import type { SettingsStore } from '../core/ports';

type SettingsData = Record<string, unknown>;
/** Makes the file-backed store: electron-store in the Electron shell, plain Conf (which it extends) elsewhere. */
export type SettingsFileFactory = (options: Options<SettingsData>) => Conf<SettingsData>;

export const confSettingsFile: SettingsFileFactory = (options) => new Conf<SettingsData>(options);

/**
 * The SettingsStore port on settings.json in the data home. The shell passes electron-store's
 * factory; web mode and the CLI can use Conf directly, and both read and write the same file.
 */
export class FileSettingsStore implements SettingsStore {
  private readonly file: Conf<SettingsData>;

  constructor(home: string, makeFile: SettingsFileFactory = confSettingsFile) {
    try {
      this.file = makeFile({
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
