import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ConfigProblem } from '../../../src-preload/contract';
import { readServersDocument } from '../../../src-preload/contract/servers-document';
import { AppFailure } from '../app-error';
import { serversFile } from '../data-home';
import type { FileVersion } from './atomic-file';
import { addServers } from './config-writer';
import { readConfigFile } from './read-config-file';
import type { ConfigSource } from './server-config';

/** Where Claude Desktop keeps its config on each OS (Linux builds follow XDG). */
export function claudeDesktopConfigPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
    case 'win32':
      return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
    default:
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude', 'claude_desktop_config.json');
  }
}

/** One entry to copy into servers.json, as written in the other file (unknown keys kept). */
export interface ImportEntry {
  name: string;
  entry: Record<string, unknown>;
}

export interface ImportPreview {
  path: string;
  /** False when Claude Desktop's file does not exist. */
  found: boolean;
  /** Valid entries whose name servers.json does not have yet. */
  toAdd: ImportEntry[];
  /** Names servers.json already has: never merged, never overwritten. */
  alreadyPresent: string[];
  /** Entries that failed validation (skipped) or a file that could not be read. */
  problems: ConfigProblem[];
}

/** What an import from Claude Desktop would add. Reads both files, writes nothing. */
export async function previewClaudeDesktopImport(home: string, path: string = claudeDesktopConfigPath()): Promise<ImportPreview> {
  const source: ConfigSource = { path, origin: 'claude-desktop', userWritten: false };
  const claude = await readConfigFile(source);
  const preview: ImportPreview = { path, found: claude.text !== undefined, toAdd: [], alreadyPresent: [], problems: claude.problems };
  if (claude.text === undefined) return preview;
  const own = await readConfigFile({ path: serversFile(home), origin: 'switchboard', userWritten: true });
  const ownNames = new Set([...own.servers.map((s) => s.name), ...own.problems.flatMap((p) => (p.server ? [p.server] : []))]);
  const raw = rawEntries(claude.text);
  for (const server of claude.servers) {
    if (ownNames.has(server.name)) preview.alreadyPresent.push(server.name);
    else preview.toAdd.push({ name: server.name, entry: raw[server.name] ?? {} });
  }
  return preview;
}

/** The entries as written, by the one reader's rule, so an import copies them field for field; none when unreadable. */
export function rawEntries(text: string): Record<string, Record<string, unknown>> {
  const doc = readServersDocument(text);
  return doc.ok ? (doc.entries as Record<string, Record<string, unknown>>) : {};
}

/**
 * Copy entries from Claude Desktop's file into servers.json, on request only (never a silent merge).
 * `names` picks some of the preview's entries; without it, all of them. Returns the names added.
 */
export async function importClaudeDesktop(
  home: string,
  options: { names?: string[]; path?: string; expectedVersion?: FileVersion } = {},
): Promise<string[]> {
  const preview = await previewClaudeDesktopImport(home, options.path);
  if (!preview.found) throw new AppFailure('not_found', `Claude Desktop's config was not found at ${preview.path}`);
  const available = new Map(preview.toAdd.map((e) => [e.name, e]));
  const picked = options.names ?? preview.toAdd.map((e) => e.name);
  const entries: ImportEntry[] = [];
  for (const name of picked) {
    const entry = available.get(name);
    if (!entry) {
      const why = preview.alreadyPresent.includes(name) ? 'servers.json already has it' : 'it is not a valid server in that file';
      throw new AppFailure('invalid_input', `cannot import server "${name}" from Claude Desktop: ${why}`);
    }
    entries.push(entry);
  }
  if (entries.length === 0) {
    const why = options.names ? 'no server was picked' : 'every valid server there is already in servers.json';
    throw new AppFailure('invalid_input', `nothing to import from Claude Desktop: ${why}`);
  }
  await addServers(home, entries, options.expectedVersion === undefined ? {} : { expectedVersion: options.expectedVersion });
  return entries.map((e) => e.name);
}
