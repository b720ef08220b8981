/** How the app looks: the theme the person chose (or the OS's, by default). */
import { z } from 'zod';
import { empty, out } from './common';
import { THEME_CHOICES } from './values';

export type ThemeChoice = (typeof THEME_CHOICES)[number];
/** What is on screen once "system" is resolved against the OS. */
export type EffectiveTheme = 'light' | 'dark';

export interface Appearance {
  theme: ThemeChoice;
}

export const themeChoice = z.enum(THEME_CHOICES, 'theme must be "system", "light" or "dark"');

export const appearanceInvokes = {
  getAppearance: { input: empty, output: out<Appearance>() },
  /** Stored in the data home; every window, the Electron shell and the tray follow it. */
  setAppearance: { input: z.object({ theme: themeChoice }).strict(), output: out<Appearance>() },
} as const;

export const appearanceEvents = {
  appearanceChanged: out<Appearance>(),
} as const;
