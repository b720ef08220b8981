/** Adapters the core is built with. Shells pass real ones; tests pass real ones too where they can run. */

/** Named secrets in the OS keychain. No keychain means a thrown KeychainUnavailableError, never plaintext. */
export interface SecretVault {
  get(name: string): Promise<string | undefined>;
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<boolean>;
  list(): Promise<string[]>;
}

/** Opens a URL in the system browser; implementations validate first (SECURITY O8). */
export interface UrlOpener {
  open(url: string): Promise<void>;
}

/** Small app settings (window bounds, approvals, per-tool toggles). */
export interface SettingsStore {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export const consoleLogger: Logger = {
  info: (m, f) => console.log(m, f ?? ''),
  warn: (m, f) => console.warn(m, f ?? ''),
  error: (m, f) => console.error(m, f ?? ''),
};
