import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { electronSettingsFile } from '../../../src-main/electron/electron-settings-file';
import { FileSettingsStore } from '../../../src-main/electron/settings-store';

vi.mock('electron', () => import('./test-electron'));

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'switchboard-settings-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const onDisk = () => JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as Record<string, unknown>;

describe('FileSettingsStore', () => {
  it('keeps values in settings.json in the data home, readable by a second store on the same file', () => {
    const store = new FileSettingsStore(home);
    store.set('window', { width: 900, height: 600 });
    expect(store.path).toBe(join(home, 'settings.json'));
    expect(onDisk()).toEqual({ window: { width: 900, height: 600 } });
    expect(new FileSettingsStore(home).get('window')).toEqual({ width: 900, height: 600 });
  });

  it('takes keys literally, so a dotted server name is one key and not a nested path', () => {
    const store = new FileSettingsStore(home);
    store.set('tools.my.server__echo', false);
    expect(store.get('tools.my.server__echo')).toBe(false);
    expect(onDisk()).toEqual({ 'tools.my.server__echo': false });
  });

  it('forgets a key on delete and on set(undefined), leaving the other keys alone', () => {
    const store = new FileSettingsStore(home);
    store.set('a', 1);
    store.set('b', 2);
    store.set('c', 3);
    store.delete('a');
    store.set('b', undefined);
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBeUndefined();
    expect(onDisk()).toEqual({ c: 3 });
  });

  it('refuses a settings file it cannot parse and leaves the file as it was', () => {
    const broken = '{ "a": 1, oops';
    writeFileSync(join(home, 'settings.json'), broken);
    // The parser's own wording differs between Node versions; ours wraps it with the file's path.
    const parserSays = (() => {
      try {
        JSON.parse(broken);
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(() => new FileSettingsStore(home)).toThrow(`cannot read the settings file ${join(home, 'settings.json')}: ${parserSays}`);
    expect(readFileSync(join(home, 'settings.json'), 'utf8')).toBe('{ "a": 1, oops');
  });

  it('in the shell, electron-store writes the same settings.json that plain Node reads', () => {
    const shellStore = new FileSettingsStore(home, electronSettingsFile);
    shellStore.set('window', { x: 10, y: 20 });
    expect(shellStore.path).toBe(join(home, 'settings.json'));
    expect(new FileSettingsStore(home).get('window')).toEqual({ x: 10, y: 20 });
  });
});
