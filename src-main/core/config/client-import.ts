import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { ConfigProblem } from '../../../src-preload/contract';
import { readServersDocument } from '../../../src-preload/contract/servers-document';
import { AppFailure } from '../app-error';
import { serversFile } from '../data-home';
import { freeName } from '../install/free-name';
import type { SecretVault } from '../ports';
import type { FileVersion } from './atomic-file';
import type { ImportClient } from '../../../src-preload/contract/config';
import { clientConfigPath, clientLabel, declaredInputs, INPUT_MARK, translateEntry, type ClientInput } from './client-configs';
import { addServers } from './config-writer';
import { inputsIgnoredMessage } from './parse-config-file';
import { PERSON_ONLY_FIELDS } from './provenance';
import { readConfigFile } from './read-config-file';
import { validateServerEntry } from './validate-server';

/**
 * Importing another client's servers into servers.json, on request only. The preview shows each
 * entry in Switchboard's terms, the name it would take (never one servers.json has: a taken name
 * gets a free one), the inputs to answer, and the entries that cannot be imported with the reason.
 * Nothing is written until the person imports; the other client's file is never written.
 */
export interface ImportItem {
  name: string;
  /** The name it gets in servers.json: its own, or a free one when that is taken. */
  importAs: string;
  entry: Record<string, unknown>;
  /** Ids of the file's inputs it uses. */
  inputs: string[];
}

export interface ClientImportPreview {
  client: ImportClient;
  path: string;
  found: boolean;
  toAdd: ImportItem[];
  /** Entries that cannot be imported as they are, each with its reason. */
  refused: { name: string; reason: string }[];
  /** The inputs the importable entries ask for. */
  inputs: ClientInput[];
  /** True when some entry uses ${workspaceFolder} and no folder was given. */
  needsFolder: boolean;
  problems: ConfigProblem[];
}

export interface ImportOptions {
  path?: string;
  workspaceFolder?: string;
  home?: string;
}

export async function previewClientImport(home: string, client: ImportClient, options: ImportOptions = {}): Promise<ClientImportPreview> {
  const path = options.path ?? clientConfigPath(client);
  if (options.workspaceFolder !== undefined && !isAbsolute(options.workspaceFolder)) {
    throw new AppFailure('invalid_input', `the project folder must be an absolute path, not "${options.workspaceFolder}"`);
  }
  const file = await readConfigFile({ path, origin: client, userWritten: false });
  // An import asks the inputs, so the live reader's note that it cannot is not for here.
  const problems = file.problems.filter((p) => p.message !== inputsIgnoredMessage(path));
  const preview: ClientImportPreview = { client, path, found: file.text !== undefined, toAdd: [], refused: [], inputs: [], needsFolder: false, problems };
  if (file.text === undefined) return preview;
  const doc = readServersDocument(file.text);
  if (!doc.ok) return preview;
  const inputs = declaredInputs(doc.top);
  const own = await readConfigFile({ path: serversFile(home), origin: 'switchboard', userWritten: true });
  const taken = new Set([...own.servers.map((s) => s.name), ...own.problems.flatMap((p) => (p.server ? [p.server] : []))]);
  const context = { home: options.home ?? homedir(), inputs, ...(options.workspaceFolder ? { workspaceFolder: options.workspaceFolder } : {}) };
  for (const [name, raw] of Object.entries(doc.entries as Record<string, unknown>)) {
    // The reader's problems name a bad entry with its line and column.
    const refusedByReader = !file.servers.some((s) => s.name === name) && file.problems.some((p) => p.server === name);
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || refusedByReader) continue;
    const translated = translateEntry(raw as Record<string, unknown>, context);
    if (translated.problems.some((p) => p.startsWith('${workspaceFolder') && p.includes('give the folder'))) preview.needsFolder = true;
    // Checked as it will be in servers.json, with a placeholder where each input goes.
    const checked = validateServerEntry(name, JSON.parse(JSON.stringify(translated.entry).replace(INPUT_MARK, 'x')), { path, origin: client, userWritten: false });
    const reasons = [...translated.problems, ...(checked.ok ? [] : [checked.message.replace(`server "${name}": `, '')])];
    if (reasons.length > 0) {
      preview.refused.push({ name, reason: reasons.join('; ') });
      continue;
    }
    // approval and prefix are the person's to set, never another app's file's (SECURITY V1): left out; the reader's note says so.
    for (const field of Object.keys(PERSON_ONLY_FIELDS)) delete translated.entry[field];
    const importAs = freeName(name, taken);
    taken.add(importAs);
    preview.toAdd.push({ name, importAs, entry: translated.entry, inputs: translated.inputs });
  }
  const used = new Set(preview.toAdd.flatMap((i) => i.inputs));
  preview.inputs = [...inputs.values()].filter((i) => used.has(i.id));
  return preview;
}

/** Keychain name of a password input's answer: one per client and input id, so it is asked once. */
export const importInputSecret = (client: ImportClient, id: string): string => `import.${client}.${id.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 128);

export interface ImportRequest extends ImportOptions {
  /** The preview's names to import, each under the name it should take. */
  items: { name: string; as: string }[];
  /** Answers to the inputs, by id. */
  answers?: Record<string, string>;
  expectedVersion?: FileVersion;
}

export async function importFromClient(home: string, vault: SecretVault, client: ImportClient, request: ImportRequest): Promise<string[]> {
  const label = clientLabel[client];
  const preview = await previewClientImport(home, client, request);
  if (!preview.found) throw new AppFailure('not_found', `${label}'s config was not found at ${preview.path}`);
  if (request.items.length === 0) throw new AppFailure('invalid_input', `nothing to import from ${label}: no server was picked`);
  const available = new Map(preview.toAdd.map((item) => [item.name, item]));
  const picked: ImportItem[] = [];
  for (const { name, as } of request.items) {
    const item = available.get(name);
    if (!item) {
      const refused = preview.refused.find((r) => r.name === name);
      throw new AppFailure('invalid_input', `cannot import server "${name}" from ${label}: ${refused ? refused.reason : 'there is no such server in that file'}`);
    }
    const taken = [...available.values()].filter((i) => i !== item).map((i) => i.importAs);
    if (as !== item.importAs && (taken.includes(as) || !(await isFree(home, as)))) {
      throw new AppFailure('conflict', `a server named "${as}" already exists; import "${name}" as "${item.importAs}"`);
    }
    picked.push({ ...item, importAs: as });
  }
  const answers = request.answers ?? {};
  const needed = preview.inputs.filter((input) => picked.some((item) => item.inputs.includes(input.id)));
  for (const input of needed) {
    if (!answers[input.id]) throw new AppFailure('invalid_input', `"${input.description}" (\${input:${input.id}}) needs a value`);
  }
  // A password answer is kept in the keychain and referenced; any other answer is written as given.
  const value = (id: string): string => (needed.find((i) => i.id === id)?.password ? `\${secret:${importInputSecret(client, id)}}` : answers[id]!);
  const entries = picked.map((item) => ({ name: item.importAs, entry: JSON.parse(JSON.stringify(item.entry).replace(INPUT_MARK, (_m, id: string) => escapeJson(value(id)))) as Record<string, unknown> }));
  // What each keychain entry held before, to put back if the write fails.
  const before = new Map<string, string | undefined>();
  try {
    for (const input of needed.filter((i) => i.password)) {
      const name = importInputSecret(client, input.id);
      before.set(name, await vault.get(name));
      await vault.set(name, answers[input.id]!);
    }
    await addServers(home, entries, request.expectedVersion === undefined ? {} : { expectedVersion: request.expectedVersion });
  } catch (error) {
    for (const [name, old] of before) await (old === undefined ? vault.delete(name) : vault.set(name, old)).catch(() => false);
    throw error;
  }
  return entries.map((e) => e.name);
}

async function isFree(home: string, name: string): Promise<boolean> {
  const own = await readConfigFile({ path: serversFile(home), origin: 'switchboard', userWritten: true });
  return !own.servers.some((s) => s.name === name) && !own.problems.some((p) => p.server === name);
}

/** A value put inside a JSON string literal. */
const escapeJson = (text: string): string => JSON.stringify(text).slice(1, -1);
