import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { NamedEntry } from './config-writer';
import { lineColumn } from './parse-config-file';
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
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    const reason = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    return { ok: false, message: `the pasted text is not valid JSON (line ${line}, column ${column}: ${reason})` };
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return { ok: false, message: `the pasted text must be a JSON object; ${SHAPES}` };
  }
  const top = root as Record<string, unknown>;
  if ('command' in top || 'url' in top) {
    return { ok: false, message: 'the pasted server has no name; wrap it as {"name": {...}}' };
  }
  const key = ['mcpServers', 'servers'].find((k) => k in top);
  const servers = key ? top[key] : top;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    return { ok: false, message: `"${key}" must be an object of named servers` };
  }
  const entries: NamedEntry[] = [];
  for (const [name, entry] of Object.entries(servers)) {
    const checked = validateServerEntry(name, entry, source);
    if (!checked.ok) return { ok: false, message: checked.message };
    entries.push({ name, entry: entry as Record<string, unknown> });
  }
  if (entries.length === 0) return { ok: false, message: `the pasted text holds no servers; ${SHAPES}` };
  return { ok: true, entries };
}
