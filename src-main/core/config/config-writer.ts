import { applyEdits, modify, type JSONPath } from 'jsonc-parser';
import { readServersDocument, type ServersKey } from '../../../src-preload/contract/servers-document';
import { AppFailure } from '../app-error';
import { refuseAutoApproval } from '../policy/approval-locks';
import { serversFile } from '../data-home';
import { readTextIfExists, versionOf, writeFileAtomic, type FileVersion } from './atomic-file';
import type { ConfigSource } from './server-config';
import { validateServerEntry } from './validate-server';

/**
 * Edits of Switchboard's own servers.json, and only that file: project files and Claude
 * Desktop's are never written. Each edit validates first, changes only its entry (comments and
 * unknown keys survive, via jsonc-parser), writes atomically with mode 0600, and is refused
 * when the file changed on disk since it was read.
 */

export const STALE_MESSAGE = 'servers.json changed on disk since it was read; reload and try again';

export interface WriteOptions {
  /**
   * The file's version when the caller last read it (LoadedConfig.versions[path]); when it no
   * longer matches, the edit is refused. Without it, only a change during the edit itself is caught.
   */
  expectedVersion?: FileVersion;
}

/** A raw entry as a user writes it in JSON, with its name. */
export interface NamedEntry {
  name: string;
  entry: Record<string, unknown>;
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };
const NEW_FILE = '{\n  "servers": {}\n}\n';

/** Add servers that do not exist yet; all or nothing. */
export async function addServers(home: string, entries: NamedEntry[], options: WriteOptions = {}): Promise<void> {
  if (entries.length === 0) throw new AppFailure('invalid_input', 'no servers to add');
  checkDistinct(home, entries);
  await edit(home, options, (file) => {
    let text = file.text;
    for (const { name, entry } of entries) {
      if (Object.hasOwn(file.servers, name)) throw new AppFailure('conflict', `server "${name}" already exists in servers.json`);
      refuseAutoApproval(name, entry, undefined);
      text = applyEdits(text, modify(text, [file.key, name], entry, FORMAT));
    }
    return text;
  });
}

export const addServer = (home: string, name: string, entry: Record<string, unknown>, options: WriteOptions = {}): Promise<void> =>
  addServers(home, [{ name, entry }], options);

/** Replace one server's entry as a whole (the name stays). */
export const updateServer = (home: string, name: string, entry: Record<string, unknown>, options: WriteOptions = {}): Promise<void> =>
  updateServers(home, [{ name, entry }], options);

/** Replace several existing entries in one write: all of them or none. */
export async function updateServers(home: string, entries: NamedEntry[], options: WriteOptions = {}): Promise<void> {
  if (entries.length === 0) throw new AppFailure('invalid_input', 'no servers to update');
  checkDistinct(home, entries);
  await edit(home, options, (file) => {
    let text = file.text;
    for (const { name, entry } of entries) {
      // "auto" is refused while the administrator's policy says every call asks, unless the entry had it (SECURITY X2).
      refuseAutoApproval(name, entry, requireServer(file, name));
      text = applyEdits(text, modify(text, [file.key, name], entry, FORMAT));
    }
    return text;
  });
}

export async function removeServer(home: string, name: string, options: WriteOptions = {}): Promise<void> {
  await edit(home, options, (file) => {
    requireServer(file, name);
    return applyEdits(file.text, modify(file.text, [file.key, name], undefined, FORMAT));
  });
}

/** Enable or disable one server; a Claude-style "disabled" key is replaced by "enabled" so the two never disagree. */
export async function setServerEnabled(home: string, name: string, enabled: boolean, options: WriteOptions = {}): Promise<void> {
  await edit(home, options, (file) => {
    const entry = requireServer(file, name);
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new AppFailure('invalid_input', `server "${name}": must be an object`);
    }
    let text = file.text;
    const at = (field: string): JSONPath => [file.key, name, field];
    if ('disabled' in entry) text = applyEdits(text, modify(text, at('disabled'), undefined, FORMAT));
    return applyEdits(text, modify(text, at('enabled'), enabled, FORMAT));
  });
}

interface OwnFile {
  text: string;
  /** "servers", or "mcpServers" in a file kept in Claude Desktop's shape (the reader's rule). */
  key: ServersKey;
  servers: Record<string, unknown>;
}

/** Every entry valid and named once. */
function checkDistinct(home: string, entries: NamedEntry[]): void {
  const names = new Set<string>();
  for (const { name, entry } of entries) {
    checkEntry(home, name, entry);
    if (names.has(name)) throw new AppFailure('invalid_input', `server "${name}" is given twice`);
    names.add(name);
  }
}

function checkEntry(home: string, name: string, entry: unknown): void {
  const source: ConfigSource = { path: serversFile(home), origin: 'switchboard', userWritten: true };
  const checked = validateServerEntry(name, entry, source);
  if (!checked.ok) throw new AppFailure('invalid_input', checked.message);
  const polluting = prototypeKeyPath(entry);
  if (polluting) throw new AppFailure('invalid_input', `server "${name}": "${polluting}" is a key Switchboard never saves (it would change the entry's prototype)`);
}

const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Where an entry holds a key that becomes an object's prototype once copied (`__proto__`, and
 * `constructor`/`prototype` with it), at any depth: JSON.parse keeps it as an own key, so it would
 * be saved raw (SECURITY V1).
 */
export function prototypeKeyPath(value: unknown, at = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const path = Array.isArray(value) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
    if (!Array.isArray(value) && PROTOTYPE_KEYS.has(key)) return path;
    const found = prototypeKeyPath(inner, path);
    if (found) return found;
  }
  return undefined;
}

function requireServer(file: OwnFile, name: string): unknown {
  if (!Object.hasOwn(file.servers, name)) throw new AppFailure('not_found', `no server "${name}" in servers.json`);
  return file.servers[name];
}

/** One edit at a time per file in this process, so our own edits never refuse each other. */
const queues = new Map<string, Promise<unknown>>();

async function edit(home: string, options: WriteOptions, change: (file: OwnFile) => string): Promise<void> {
  const path = serversFile(home);
  const run = (queues.get(path) ?? Promise.resolve()).catch(() => undefined).then(() => editNow(path, options, change));
  queues.set(path, run);
  try {
    await run;
  } finally {
    if (queues.get(path) === run) queues.delete(path);
  }
}

async function editNow(path: string, options: WriteOptions, change: (file: OwnFile) => string): Promise<void> {
  const original = await readTextIfExists(path);
  const version = versionOf(original);
  if (options.expectedVersion !== undefined && options.expectedVersion !== version) throw new AppFailure('conflict', STALE_MESSAGE);
  const next = change(readOwnFile(path, original ?? NEW_FILE));
  // The last look before replacing: an outside edit made while we worked must not be lost.
  if (versionOf(await readTextIfExists(path)) !== version) throw new AppFailure('conflict', STALE_MESSAGE);
  await writeFileAtomic(path, next);
}

function readOwnFile(path: string, text: string): OwnFile {
  if (text.trim() === '') text = NEW_FILE;
  const doc = readServersDocument(text);
  if (doc.ok) return { text, key: doc.key ?? 'servers', servers: doc.entries };
  switch (doc.fault) {
    case 'syntax':
      throw new AppFailure('conflict', `${path}:${doc.line}:${doc.column}: invalid JSON (${doc.reason}); fix the file by hand first, Switchboard does not rewrite a file it cannot read`);
    case 'top':
      throw new AppFailure('conflict', `${path}: the top level must be an object; fix the file by hand first`);
    case 'entries':
      throw new AppFailure('conflict', `${path}: "${doc.key}" must be an object of named servers; fix the file by hand first`);
  }
}
