import { nativeTheme, type BrowserWindow } from 'electron';
import type { EffectiveTheme, ThemeChoice } from '../../src-preload/contract/appearance';
import type { EventHub } from '../core/event-hub';

/**
 * The page background of each theme (src-renderer/styles/tokens.css, --bg): the window is painted
 * with it before the page's first frame, so opening or switching never flashes the other colour.
 */
export const WINDOW_BACKGROUND: Record<EffectiveTheme, string> = { light: '#f6f7f9', dark: '#12151c' };

/** What is on screen: the choice, or the OS's scheme when the choice is "system". */
export function effectiveTheme(): EffectiveTheme {
  return nativeTheme.shouldUseDarkColors ? 'dark' : 'light';
}

export function windowBackground(): string {
  return WINDOW_BACKGROUND[effectiveTheme()];
}

/**
 * Applies the stored choice to Electron (the title bar, native menus and the page's
 * prefers-color-scheme all follow nativeTheme.themeSource) and keeps every window's background in
 * step with each later choice and each change of the OS's scheme. Returns the unsubscribe.
 */
export function followTheme(events: EventHub, choice: ThemeChoice, windows: () => BrowserWindow[]): () => void {
  nativeTheme.themeSource = choice;
  const paint = () => {
    const background = windowBackground();
    for (const win of windows()) if (!win.isDestroyed()) win.setBackgroundColor(background);
  };
  nativeTheme.on('updated', paint);
  const unsubscribe = events.subscribe((name, payload) => {
    if (name === 'appearanceChanged') nativeTheme.themeSource = (payload as { theme: ThemeChoice }).theme;
  });
  paint();
  return () => {
    nativeTheme.off('updated', paint);
    unsubscribe();
  };
}
