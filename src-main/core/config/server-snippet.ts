import { readServersDocument } from '../../../src-preload/contract/servers-document';
import type { NamedEntry } from './config-writer';
import type { ConfigSource } from './server-config';
import { validateServerEntry } from './validate-server';

export type SnippetResult = { ok: true; entries: NamedEntry[] } | { ok: false; message: string };

const SHAPES = 'paste {"mcpServers": {"name": {...}}} or {"name": {...}}';

/**
 * Read a pasted Claude Desktop snippet: {"mcpServers": {...}} (or VS Code's {"servers": {...}})
 * or a bare {"name": {...}}. Every entry must be valid; the first fault is the message.
 */
export function parseServerSnippet(text: string, source: ConfigSource): SnippetResult {
  if (text.trim() === '') return { ok: false, message: `the pasted text is empty; ${SHAPES}` };
  const doc = readServersDocument(text, { bare: true });
  if (!doc.ok) {
    switch (doc.fault) {
      case 'syntax':
        return { ok: false, message: `the pasted text is not valid JSON (line ${doc.line}, column ${doc.column}: ${doc.reason})` };
      case 'top':
        return { ok: false, message: `the pasted text must be a JSON object; ${SHAPES}` };
      case 'entries':
        return { ok: false, message: `"${doc.key}" must be an object of named servers` };
    }
  }
  if (doc.ignored) return { ok: false, message: `the pasted text has both "servers" and "${doc.ignored}"; paste the servers under one of them` };
  if (!doc.key && (Object.hasOwn(doc.top, 'command') || Object.hasOwn(doc.top, 'url'))) {
    return { ok: false, message: 'the pasted server has no name; wrap it as {"name": {...}}' };
  }
  const entries: NamedEntry[] = [];
  for (const [name, entry] of Object.entries(doc.entries)) {
    const checked = validateServerEntry(name, entry, source);
    if (!checked.ok) return { ok: false, message: checked.message };
    entries.push({ name, entry: entry as Record<string, unknown> });
  }
  if (entries.length === 0) return { ok: false, message: `the pasted text holds no servers; ${SHAPES}` };
  return { ok: true, entries };
}
