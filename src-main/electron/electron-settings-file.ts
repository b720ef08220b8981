import ElectronStore from 'electron-store';
import type { SettingsFileFactory } from './settings-store';

/** electron-store for the shell's settings; it names the file by `name`, where Conf uses `configName`. */
export const electronSettingsFile: SettingsFileFactory = ({ configName, ...options }) =>
  new ElectronStore<Record<string, unknown>>({ ...options, name: configName ?? 'settings' });
