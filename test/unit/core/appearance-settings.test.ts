import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppearanceSettings, appearanceFile } from '../../../src-main/core/appearance/appearance-settings';
import type { Logger } from '../../../src-main/core/ports';

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'switchboard-appearance-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

class RecordingLogger implements Logger {
  readonly warnings: string[] = [];
  info() {}
  warn(message: string) {
    this.warnings.push(message);
  }
  error() {}
}

describe('AppearanceSettings', () => {
  it('follows the OS until a choice is stored, then reads the stored choice back in a new instance', async () => {
    const settings = new AppearanceSettings(appearanceFile(home));
    await settings.load();
    expect(settings.get()).toEqual({ theme: 'system' });
    const heard: unknown[] = [];
    settings.onChange((a) => heard.push(a));
    expect(await settings.set({ theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(heard).toEqual([{ theme: 'dark' }]);
    const again = new AppearanceSettings(appearanceFile(home));
    await again.load();
    expect(again.get()).toEqual({ theme: 'dark' });
  });

  it('ignores an unreadable file with a warning naming it, and does not rewrite it', async () => {
    await writeFile(appearanceFile(home), '{"theme": "sepia"}');
    const logger = new RecordingLogger();
    const settings = new AppearanceSettings(appearanceFile(home), logger);
    await settings.load();
    expect(settings.get()).toEqual({ theme: 'system' });
    expect(logger.warnings).toEqual([`ignoring unreadable appearance settings ${appearanceFile(home)}; following the OS`]);
    expect(await readFile(appearanceFile(home), 'utf8')).toBe('{"theme": "sepia"}');
  });

  it('refuses a choice outside system, light and dark, keeping the stored one', async () => {
    const settings = new AppearanceSettings(appearanceFile(home));
    await settings.set({ theme: 'light' });
    await expect(settings.set({ theme: 'sepia' as 'light' })).rejects.toThrow('theme must be "system", "light" or "dark"');
    expect(settings.get()).toEqual({ theme: 'light' });
    expect(JSON.parse(await readFile(appearanceFile(home), 'utf8'))).toEqual({ theme: 'light' });
  });
});
