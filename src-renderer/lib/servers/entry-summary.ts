/**
 * What a server entry would run, read for display: the trust card, the paste preview and the
 * Claude Desktop import all show commands and args in full, and env/header names only
 * (their values may be secrets, and arrive masked anyway).
 */
import type { ServerEntry } from '../../../src-preload/contract';
import { readServersDocument } from '../../../src-preload/contract/servers-document';

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
  // The core's reader and rule, so the preview shows what an add would take.
  const doc = readServersDocument(text, { bare: true });
  if (!doc.ok || (!doc.key && ('command' in doc.top || 'url' in doc.top))) return undefined;
  const entries = Object.entries(doc.entries).map(([name, entry]) => ({ name, entry: isObject(entry) ? entry : {} }));
  return entries.length > 0 ? entries : undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
