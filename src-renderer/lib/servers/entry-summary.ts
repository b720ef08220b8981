/**
 * What a server entry would run, read for display: the trust card, the paste preview and the
 * Claude Desktop import all show commands and args in full, and env/header names only
 * (their values may be secrets, and arrive masked anyway).
 */
import { parse, type ParseError } from 'jsonc-parser';
import type { ServerEntry } from '../../../src-preload/contract';

export type EntrySummary =
  | { kind: 'local'; command: string; args: string[]; envKeys: string[]; cwd?: string }
  | { kind: 'remote'; url: string; transport: string; headerKeys: string[] }
  | { kind: 'unknown' };

export function summarizeEntry(entry: ServerEntry): EntrySummary {
  if (typeof entry.command === 'string') {
    return {
      kind: 'local',
      command: entry.command,
      args: Array.isArray(entry.args) ? entry.args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))) : [],
      envKeys: keysOf(entry.env),
      ...(typeof entry.cwd === 'string' ? { cwd: entry.cwd } : {}),
    };
  }
  if (typeof entry.url === 'string') {
    const transport = typeof entry.transport === 'string' ? entry.transport : typeof entry.type === 'string' ? entry.type : 'auto';
    return { kind: 'remote', url: entry.url, transport, headerKeys: keysOf(entry.headers) };
  }
  return { kind: 'unknown' };
}

const keysOf = (map: unknown): string[] => (typeof map === 'object' && map !== null && !Array.isArray(map) ? Object.keys(map) : []);

/**
 * The servers a pasted snippet names ({"mcpServers": {...}}, {"servers": {...}} or {"name": {...}}),
 * for the preview only: undefined when the text is not an object of named entries. Whether the
 * entries are valid is the core's call when they are added.
 */
export function previewSnippet(text: string): { name: string; entry: ServerEntry }[] | undefined {
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !isObject(root) || 'command' in root || 'url' in root) return undefined;
  const key = ['mcpServers', 'servers'].find((k) => k in root);
  const servers = key ? root[key] : root;
  if (!isObject(servers)) return undefined;
  const entries = Object.entries(servers).map(([name, entry]) => ({ name, entry: isObject(entry) ? entry : {} }));
  return entries.length > 0 ? entries : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
