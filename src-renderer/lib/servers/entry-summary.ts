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

/**
 * Why a pasted snippet has nothing to preview, named exactly and at once (issue 23 item 7): a syntax
 * error with its line and column, or a shape that is not named servers. Undefined while empty or previewable.
 */
export function pasteProblem(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const doc = readServersDocument(text, { bare: true });
  if (!doc.ok) {
    // A command line pasted here (`npx -y pkg`) is not JSON at all: send it where it is split.
    if (doc.fault === 'syntax' && !/^\s*[{[]/.test(text)) return 'This is not JSON (a snippet starts with "{"). A command line goes into Add server → Command, which splits it.';
    if (doc.fault === 'syntax') return `Not valid JSON yet: line ${doc.line}, column ${doc.column}: ${doc.reason}.`;
    if (doc.fault === 'top') return 'The snippet must be a JSON object: {"mcpServers": {"name": {...}}} or {"name": {...}}.';
    return `"${doc.key}" must be an object of named servers.`;
  }
  if (!doc.key && ('command' in doc.top || 'url' in doc.top)) return 'This is one server entry without its name: wrap it as {"name": {...}}.';
  if (Object.keys(doc.entries).length === 0) return 'No servers in this snippet.';
  return undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
