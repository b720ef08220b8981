import { createRequire } from 'node:module';
import type * as KeytarModule from 'keytar';
import { AppFailure } from '../app-error';
import type { SecretVault } from '../ports';

export const KEYCHAIN_SERVICE = 'Switchboard';

/**
 * One keychain service per profile: the default data home uses "Switchboard"; a SWITCHBOARD_HOME
 * profile gets "Switchboard (<home>)", so two profiles never see or overwrite each other's secrets.
 */
export function keychainServiceFor(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.SWITCHBOARD_HOME?.trim();
  return home ? `${KEYCHAIN_SERVICE} (${home})` : KEYCHAIN_SERVICE;
}

type Keytar = typeof KeytarModule;

/** Thrown when there is no OS keychain to use; we never fall back to plain text (SECURITY S1). */
export class KeychainUnavailableError extends AppFailure {
  constructor(detail: string) {
    super('unavailable', `the OS keychain is not available (${detail}); on Linux, Switchboard needs a Secret Service such as gnome-keyring or KWallet running and unlocked`);
  }
}

/** The SecretVault port on the OS keychain (macOS Keychain, Windows Credential Vault, libsecret). */
export class KeytarVault implements SecretVault {
  constructor(
    private readonly service = keychainServiceFor(),
    /** Loaded with the first secret asked for unless given: the native addon is ~10 ms of start-up here. */
    private keytar?: Keytar,
  ) {}

  async get(name: string): Promise<string | undefined> {
    return (await this.guard((keytar) => keytar.getPassword(this.service, name))) ?? undefined;
  }

  async set(name: string, value: string): Promise<void> {
    await this.guard((keytar) => keytar.setPassword(this.service, name, value));
  }

  async delete(name: string): Promise<boolean> {
    return this.guard((keytar) => keytar.deletePassword(this.service, name));
  }

  async list(): Promise<string[]> {
    const found = await this.guard((keytar) => keytar.findCredentials(this.service));
    return found.map((c) => c.account).sort();
  }

  private async guard<T>(op: (keytar: Keytar) => Promise<T>): Promise<T> {
    const keytar = (this.keytar ??= loadKeytar());
    try {
      return await op(keytar);
    } catch (error) {
      throw new KeychainUnavailableError(error instanceof Error ? error.message : String(error));
    }
  }
}

function loadKeytar(): Keytar {
  // keytar is a native CommonJS addon: a missing build is a clear vault error, not a crash at import.
  try {
    return createRequire(import.meta.url)('keytar') as Keytar;
  } catch (error) {
    throw new KeychainUnavailableError(`keytar could not be loaded: ${error instanceof Error ? error.message : String(error)}`);
  }
}
