import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../../../src-main/core/event-hub';
import { effectiveTheme, followTheme, WINDOW_BACKGROUND, windowBackground } from '../../../src-main/electron/theme';
import { BrowserWindow, nativeTheme } from './test-electron';

vi.mock('electron', () => import('./test-electron'));

beforeEach(() => nativeTheme.reset());

describe('WINDOW_BACKGROUND', () => {
  it("is each theme's page background in the renderer's tokens, so the first paint matches the page", () => {
    const tokens = readFileSync(resolve(import.meta.dirname, '../../../src-renderer/styles/tokens.css'), 'utf8');
    const [, light, dark] = /--bg:\s*light-dark\(\s*(#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\s*\)/i.exec(tokens) ?? [];
    expect({ light, dark }).toEqual(WINDOW_BACKGROUND);
  });
});

describe('followTheme', () => {
  const windowWith = (color: string) => new BrowserWindow({ backgroundColor: color });

  it('applies the stored choice to nativeTheme and paints open windows with its background', () => {
    nativeTheme.osDark = false;
    const win = windowWith('#000000');
    followTheme(new EventHub(), 'dark', () => [win as never]);
    expect(nativeTheme.themeSource).toBe('dark');
    expect(effectiveTheme()).toBe('dark');
    expect(win.backgroundColor).toBe(WINDOW_BACKGROUND.dark);
    expect(windowBackground()).toBe(WINDOW_BACKGROUND.dark);
  });

  it('follows a new choice from appearanceChanged, and the OS while the choice is "system"', () => {
    const events = new EventHub();
    const win = windowWith('#000000');
    followTheme(events, 'system', () => [win as never]);
    expect(win.backgroundColor).toBe(WINDOW_BACKGROUND.light);
    nativeTheme.setOsDark(true);
    expect(win.backgroundColor).toBe(WINDOW_BACKGROUND.dark);
    events.emit('appearanceChanged', { theme: 'light' });
    expect(nativeTheme.themeSource).toBe('light');
    expect(win.backgroundColor).toBe(WINDOW_BACKGROUND.light);
    // A fixed choice ignores the OS.
    nativeTheme.setOsDark(false);
    nativeTheme.setOsDark(true);
    expect(win.backgroundColor).toBe(WINDOW_BACKGROUND.light);
  });

  it('stops following once unsubscribed, and skips destroyed windows', () => {
    const events = new EventHub();
    const win = windowWith('#000000');
    const gone = windowWith('#123456');
    gone.destroyed = true;
    const stop = followTheme(events, 'system', () => [win as never, gone as never]);
    expect(gone.backgroundColor).toBe('#123456');
    stop();
    events.emit('appearanceChanged', { theme: 'dark' });
    expect(nativeTheme.themeSource).toBe('system');
    expect(win.backgroundColor).toBe(WINDOW_BACKGROUND.light);
  });
});
