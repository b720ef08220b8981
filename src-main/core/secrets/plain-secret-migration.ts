import { rm } from 'node:fs/promises';
import type { MovedSecrets, PlainSecretField, PlainSecretProposal, PlainSecretScan } from '../../../src-preload/contract/secret-migration';
import { AppFailure } from '../app-error';
import { readTextIfExists, versionOf, writeFileAtomic } from '../config/atomic-file';
import { rawEntries } from '../config/claude-desktop';
import { updateServers } from '../config/config-writer';
import { serversFile } from '../data-home';
import { systemClock, type Clock, type SecretVault } from '../ports';
import { checkSecretName } from './secret-name';

/**
 * Finds literal values that look secret in a config (ours, or a Claude Desktop / VS Code / Cursor
 * file: all keep servers under "servers" or "mcpServers" with env and headers maps) and moves them
 * into the keychain, leaving `${secret:NAME}` in servers.json. Values stay in this process (S3).
 */

const SECRET_WORD = /TOKEN|KEY|SECRET|PASSWORD/i;
const AUTH_HEADERS = new Set(['authorization', 'proxy-authorization']);
/** Any `${...}`: ours, VS Code's `${input:...}`, a shell-style variable. Such a value is not written out. */
const ANY_REFERENCE = /\$\{[^}]*\}/;
/** "Bearer abc": the keychain keeps "abc" and the header keeps its scheme. */
const AUTH_SCHEME = /^(Bearer|Basic|Token)(\s+)(\S+)$/i;
const MAX_NAME = 128;

/** A literal that looks secret, with its value: never leaves main. */
export interface PlainSecret {
  server: string;
  field: PlainSecretField;
  key: string;
  value: string;
}

export function looksSecret(field: PlainSecretField, key: string): boolean {
  if (field === 'headers' && AUTH_HEADERS.has(key.toLowerCase())) return true;
  return SECRET_WORD.test(key);
}

/** Plain secret-looking values in raw server entries, in file order; `${...}` values and empty ones are skipped. */
export function findPlainSecretsInEntries(entries: Record<string, unknown>): PlainSecret[] {
  const found: PlainSecret[] = [];
  for (const [server, entry] of Object.entries(entries)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) continue;
    for (const field of ['env', 'headers'] as const) {
      const map = (entry as Record<string, unknown>)[field];
      if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
      for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
        if (typeof value !== 'string' || value.trim() === '' || ANY_REFERENCE.test(value)) continue;
        if (looksSecret(field, key)) found.push({ server, field, key, value });
      }
    }
  }
  return found;
}

export const findPlainSecretsInText = (text: string): PlainSecret[] => findPlainSecretsInEntries(rawEntries(text));

/** `<server>-<KEY>` under the secret-name rule, made unique against `taken` (which it extends). */
export function proposeSecretName(server: string, key: string, taken: Set<string>): string {
  const base = `${server}-${key}`.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, MAX_NAME);
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, MAX_NAME - String(n).length - 1)}-${n}`;
  taken.add(name);
  return name;
}

/** What the UI may see: servers, keys and proposed names, never the values. */
export async function findPlainSecrets(home: string, vault: SecretVault): Promise<PlainSecretScan> {
  const path = serversFile(home);
  const text = await readTextIfExists(path);
  if (text === undefined) return { path, proposals: [] };
  const found = findPlainSecretsInText(text);
  if (found.length === 0) return { path, proposals: [] };
  const taken = new Set(await vault.list());
  const proposals: PlainSecretProposal[] = found.map(({ server, field, key }) => ({ server, field, key, secretName: proposeSecretName(server, key, taken) }));
  return { path, proposals };
}

export interface MoveRequest {
  items: PlainSecretProposal[];
  backup: boolean;
}

interface PlannedMove {
  item: PlainSecretProposal;
  /** What the keychain keeps. */
  secret: string;
  /** What servers.json keeps instead of the literal. */
  reference: string;
}

/**
 * Store each picked value in the keychain, then rewrite servers.json with references through the
 * config writer. A keychain failure rolls back what was stored and leaves servers.json untouched;
 * the backup (the old file, plaintext included) is written only when asked for.
 */
export async function movePlainSecrets(home: string, vault: SecretVault, request: MoveRequest, clock: Clock = systemClock): Promise<MovedSecrets> {
  const path = serversFile(home);
  const original = await readTextIfExists(path);
  if (original === undefined) throw new AppFailure('not_found', `there is no servers.json at ${path}`);
  const plan = await planMoves(original, vault, request.items);

  const stored: string[] = [];
  for (const { item, secret } of plan) {
    try {
      await vault.set(item.secretName, secret);
    } catch (error) {
      await rollBack(vault, stored);
      const detail = error instanceof Error ? error.message : String(error);
      throw new AppFailure('unavailable', `secret ${item.secretName} could not be stored: ${detail}; nothing was moved and servers.json is unchanged`);
    }
    stored.push(item.secretName);
  }

  let backupPath: string | undefined;
  if (request.backup) {
    backupPath = `${path}.bak-${new Date(clock.now()).toISOString().replace(/[:.]/g, '-')}`;
    try {
      await writeFileAtomic(backupPath, original);
    } catch (error) {
      await rollBack(vault, stored);
      throw new AppFailure('internal', `the backup ${backupPath} could not be written (${error instanceof Error ? error.message : String(error)}); nothing was moved`);
    }
  }

  await rewrite(home, original, plan, vault, backupPath);
  return { moved: plan.map((p) => p.item.secretName), ...(backupPath ? { backupPath } : {}) };
}

async function planMoves(text: string, vault: SecretVault, items: PlainSecretProposal[]): Promise<PlannedMove[]> {
  const found = findPlainSecretsInText(text);
  const places = new Set<string>();
  const names = new Set<string>();
  const existing = new Set(await vault.list());
  return items.map((item) => {
    const where = `server "${item.server}": ${item.field}.${item.key}`;
    const hit = found.find((f) => f.server === item.server && f.field === item.field && f.key === item.key);
    if (!hit) throw new AppFailure('conflict', `${where} no longer holds a plain value in servers.json; look for plain secrets again`);
    if (places.has(where)) throw new AppFailure('invalid_input', `${where} is picked twice`);
    places.add(where);
    checkSecretName(item.secretName);
    if (names.has(item.secretName)) throw new AppFailure('invalid_input', `secret name ${item.secretName} is given to two values; pick another name`);
    names.add(item.secretName);
    if (existing.has(item.secretName)) throw new AppFailure('conflict', `secret ${item.secretName} already exists in the OS keychain; pick another name`);
    const ref = `\${secret:${item.secretName}}`;
    const scheme = item.field === 'headers' ? AUTH_SCHEME.exec(hit.value) : null;
    return scheme ? { item, secret: scheme[3]!, reference: `${scheme[1]}${scheme[2]}${ref}` } : { item, secret: hit.value, reference: ref };
  });
}

/** One atomic write for every server, checked against the file the plan was made from: all or nothing. */
async function rewrite(home: string, original: string, plan: PlannedMove[], vault: SecretVault, backupPath: string | undefined): Promise<void> {
  const raw = rawEntries(original);
  const servers = [...new Set(plan.map((p) => p.item.server))];
  const entries = servers.map((name) => {
    const entry = structuredClone(raw[name]!) as Record<string, Record<string, unknown>>;
    for (const { item, reference } of plan.filter((p) => p.item.server === name)) entry[item.field]![item.key] = reference;
    return { name, entry };
  });
  try {
    await updateServers(home, entries, { expectedVersion: versionOf(original) });
  } catch (error) {
    await rollBack(vault, plan.map((p) => p.item.secretName));
    if (backupPath) await rm(backupPath, { force: true });
    const detail = error instanceof Error ? error.message : String(error);
    const code = error instanceof AppFailure ? error.code : 'internal';
    throw new AppFailure(code, `servers.json could not be rewritten: ${detail}; nothing was moved`);
  }
}

async function rollBack(vault: SecretVault, names: string[]): Promise<void> {
  for (const name of names) await vault.delete(name).catch(() => false);
}
