/**
 * The diagnostics bundle: one zip with versions, OS, every server's state and diagnosis, recent
 * logs and stderr, and the config with every secret replaced (SECURITY S5: no secret leaves in it).
 * Two layers: values that may be secrets are replaced by their place (env and header values that
 * are not bare references, URL credentials and query values, the argument after a --token-like
 * flag); then every string goes through the one scrubber (SECURITY S7), widened for the bundle to
 * every keychain entry and every credential-carrying value of every config, written and expanded —
 * so a server that prints its own token to stderr does not leak it either.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { release } from 'node:os';
import { dirname, join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import appPackage from '../../../package.json';
import type { ConfigProblem } from '../../../src-preload/contract';
import { expandServerConfig, hasReference } from '../config/expand';
import type { ServerConfig } from '../config/server-config';
import type { ServerStatus } from '../mcp/mcp-manager';
import type { SecretVault } from '../ports';
import { SCRUBBED, secretArgs, type Scrubber } from '../secrets/scrubber';
import { diagnoseServer } from './server-diagnosis';

export const REDACTED = SCRUBBED;

export interface BundleSource {
  statuses: ServerStatus[];
  logs: (server: string) => string[];
  appLog: string[];
  problems: ConfigProblem[];
  configPath: string;
  vault: SecretVault;
  env: NodeJS.ProcessEnv;
  /** The process's scrubber; the bundle widens it with what only it reads. */
  scrubber: Scrubber;
  now: Date;
}

/** switchboard-diagnostics-2026-11-23T20-41-00Z.zip: sortable, and safe on every file system. */
export function diagnosticsFileName(now: Date): string {
  return `switchboard-diagnostics-${now.toISOString().slice(0, 19).replace(/:/g, '-')}Z.zip`;
}

export async function buildDiagnosticsBundle(source: BundleSource): Promise<Uint8Array> {
  const { secrets, keychain } = await knownSecrets(source);
  const wider = source.scrubber.with(secrets);
  const scrub = <T>(value: T): T => wider.value(value);
  const about = {
    generatedAt: source.now.toISOString(),
    switchboard: appPackage.version,
    mcpSdk: sdkVersion(),
    node: process.versions.node,
    ...(process.versions.electron ? { electron: process.versions.electron } : {}),
    os: { platform: process.platform, release: release(), arch: process.arch },
    configPath: source.configPath,
    keychain,
  };
  const servers = source.statuses.map((s) => ({
    name: s.name,
    transport: s.transport,
    state: s.state.kind,
    reason: s.state.reason,
    diagnosis: diagnoseServer(s.config, s.state) ?? null,
    toolCount: s.toolCount,
    config: redactConfig(s.config),
  }));
  const files: Record<string, Uint8Array> = {
    'about.json': json(scrub(about)),
    'servers.json': json(scrub({ servers, problems: source.problems })),
    'logs/switchboard.log': text(source.appLog.map(scrub)),
  };
  for (const s of source.statuses) files[`logs/servers/${s.name}.log`] = text(source.logs(s.name).map(scrub));
  return zipSync(files, { level: 6, mtime: source.now });
}

/** Every secret value this process can know of, beyond what the scrubber was told; and what the keychain said. */
async function knownSecrets(source: BundleSource): Promise<{ secrets: string[]; keychain: { available: boolean; entries: number } }> {
  const found = new Set<string>();
  const add = (value: unknown) => collectStrings(value, found);
  let keychain: { available: boolean; entries: number };
  try {
    const names = await source.vault.list();
    keychain = { available: true, entries: names.length };
    for (const name of names) {
      const value = await source.vault.get(name);
      if (value === undefined) continue;
      add(value);
      add(parseJson(value));
    }
  } catch {
    keychain = { available: false, entries: 0 };
  }
  for (const { config } of source.statuses) {
    // A value written with references names its secrets; the expansion below holds what they stand for.
    for (const value of secretFields(config)) if (!hasReference(value)) add(value);
    const expanded = await expandServerConfig(config, source.env, source.vault).catch(() => undefined);
    if (expanded?.ok) for (const value of secretFields(expanded.config)) add(value);
  }
  return { secrets: [...found], keychain };
}

function secretFields(config: ServerConfig): string[] {
  return config.kind === 'stdio' ? [...Object.values(config.env), ...secretArgs(config.args).values()] : [...Object.values(config.headers), ...urlSecrets(config.url)];
}

function urlSecrets(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const parsed = new URL(url);
  return [parsed.username, parsed.password, ...parsed.searchParams.values()].map((v) => decodeURIComponent(v)).filter(Boolean);
}

function collectStrings(value: unknown, into: Set<string>): void {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, into);
}

/** The config as written, with every value that may hold a secret replaced by where it was. */
export function redactConfig(config: ServerConfig): Record<string, unknown> {
  const { source, ...rest } = config;
  const base = { ...rest, source: source.path };
  if (config.kind === 'stdio') return { ...base, args: redactArgs(config.args), env: redactMap(config.env) };
  return { ...base, url: redactUrl(config.url), headers: redactMap(config.headers) };
}

/** A value stays only when it is nothing but references (and an auth scheme word): `${secret:x}`, `Bearer ${TOKEN}`. */
function redactMap(map: Record<string, string>): Record<string, string> {
  const bareReference = (value: string) => hasReference(value) && /^\s*(bearer|basic|token)?\s*$/i.test(value.replace(/\$\{[^}]*\}/g, ''));
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, bareReference(value) && !/:-/.test(value) ? value : REDACTED]));
}

function redactArgs(args: string[]): string[] {
  const secret = secretArgs(args);
  return args.map((arg, i) => (!secret.has(i) ? arg : arg.includes('=') && arg.startsWith('-') ? `${arg.slice(0, arg.indexOf('='))}=${REDACTED}` : REDACTED));
}

function redactUrl(url: string): string {
  if (!URL.canParse(url)) return REDACTED;
  const parsed = new URL(url);
  if (parsed.username) parsed.username = 'redacted';
  if (parsed.password) parsed.password = 'redacted';
  for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, 'redacted');
  return parsed.href;
}

/** The SDK's package.json is not in its exports map: read it beside the resolved entry. */
function sdkVersion(): string {
  try {
    let dir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/sdk/client/index.js'));
    for (let depth = 0; depth < 5; depth++, dir = dirname(dir)) {
      const manifest = parseJson(safeRead(join(dir, 'package.json'))) as { name?: string; version?: string } | undefined;
      if (manifest?.name === '@modelcontextprotocol/sdk' && manifest.version) return manifest.version;
    }
  } catch {
    // Not resolvable from here (a packaged build laid out differently): say so rather than fail the bundle.
  }
  return 'unknown';
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const json = (value: unknown) => strToU8(`${JSON.stringify(value, null, 2)}\n`);
const text = (lines: string[]) => strToU8(lines.length ? `${lines.join('\n')}\n` : '');
