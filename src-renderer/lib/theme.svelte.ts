import type { Api, AppError, EffectiveTheme, ThemeChoice } from '../../src-preload/contract';

type ThemeApi = Pick<Api, 'getAppearance' | 'setAppearance' | 'onAppearanceChanged'>;
/** The part of MediaQueryList the store listens to (a real one in the app, a stand-in in tests). */
export type SchemeQuery = Pick<MediaQueryList, 'matches' | 'addEventListener'>;

/**
 * The theme: the person's choice (kept by the core, shared by every window and the tray) and the
 * one on screen. `effective` is THE place to read the theme from, e.g. to hand it to an MCP App.
 */
export class ThemeStore {
  choice = $state<ThemeChoice>('system');
  /** The OS's (or, in Electron, nativeTheme's) scheme. */
  private systemDark = $state(false);
  readonly effective: EffectiveTheme = $derived(this.choice === 'system' ? (this.systemDark ? 'dark' : 'light') : this.choice);
  error = $state.raw<AppError | undefined>(undefined);

  constructor(
    private readonly api: ThemeApi,
    scheme: SchemeQuery,
  ) {
    this.systemDark = scheme.matches;
    scheme.addEventListener('change', (event) => (this.systemDark = event.matches));
    api.onAppearanceChanged((appearance) => (this.choice = appearance.theme));
  }

  async load(): Promise<void> {
    const result = await this.api.getAppearance({});
    if (result.ok) this.choice = result.value.theme;
  }

  async choose(theme: ThemeChoice): Promise<void> {
    const before = this.choice;
    this.choice = theme;
    const result = await this.api.setAppearance({ theme });
    this.error = result.ok ? undefined : result.error;
    if (!result.ok) this.choice = before;
  }
}

/** Puts the effective theme on <html> (tokens.css switches on it) for as long as the app runs. */
export function applyTheme(theme: ThemeStore, root: HTMLElement = document.documentElement): void {
  $effect(() => {
    root.dataset.theme = theme.effective;
  });
}
