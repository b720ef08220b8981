import { join } from 'node:path';
import { readTextIfExists, writeFileAtomic } from '../config/atomic-file';
import { bundlesFile } from '../data-home';
import type { PlannedEntry } from './bundle-plan';

/**
 * Installed bundles live in their own config file, bundles.json in the data home: its "servers"
 * are read like any config file's, but as a source the person did not write, so each stays
 * blocked until approved with the hash-bound trust of project servers (SECURITY P1). Its
 * "bundles" record what Switchboard must clean up on uninstall: the folder and the secrets.
 */
export const bundlesDir = (home: string): string => join(home, 'bundles');

export interface InstalledBundle {
  /** The manifest's name: an update must carry the same. */
  manifestName: string;
  version: string;
  /** Absolute folder it is unpacked in (under bundles/<server>/). */
  dir: string;
  sha256: string;
  /** Keychain names holding its sensitive settings. */
  secrets: string[];
  installedAt: number;
}

export interface BundlesFile {
  servers: Record<string, PlannedEntry>;
  bundles: Record<string, InstalledBundle>;
}

export async function readBundles(home: string): Promise<BundlesFile> {
  const text = await readTextIfExists(bundlesFile(home));
  if (text === undefined || text.trim() === '') return { servers: {}, bundles: {} };
  // Written only by Switchboard; a broken one must not be overwritten blindly.
  const parsed = JSON.parse(text) as Partial<BundlesFile>;
  return { servers: { ...parsed.servers }, bundles: { ...parsed.bundles } };
}

export async function writeBundles(home: string, file: BundlesFile): Promise<void> {
  await writeFileAtomic(bundlesFile(home), `${JSON.stringify(file, null, 2)}\n`);
}

/** One change at a time, each reading the file at its turn. */
let queue: Promise<unknown> = Promise.resolve();
export function changeBundles<T>(home: string, change: (file: BundlesFile) => Promise<T>): Promise<T> {
  const run = queue.catch(() => undefined).then(async () => change(await readBundles(home)));
  queue = run;
  return run;
}
