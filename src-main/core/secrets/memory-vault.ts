import type { SecretVault } from '../ports';

/** A SecretVault in process memory, for unit tests and headless test clients only; the app uses KeytarVault. */
export class MemoryVault implements SecretVault {
  private readonly entries = new Map<string, string>();

  async get(name: string): Promise<string | undefined> {
    return this.entries.get(name);
  }

  async set(name: string, value: string): Promise<void> {
    this.entries.set(name, value);
  }

  async delete(name: string): Promise<boolean> {
    return this.entries.delete(name);
  }

  async list(): Promise<string[]> {
    return [...this.entries.keys()].sort();
  }
}
