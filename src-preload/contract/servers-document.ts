/**
 * The one reader of a servers document (servers.json, Claude Desktop's, Cursor's, VS Code's,
 * .mcp.json, a pasted snippet), shared by main and the renderer so they never disagree on it.
 * JSON with comments and trailing commas, as VS Code writes it.
 *
 * The rule: servers sit under "servers" (ours, VS Code) or "mcpServers" (Claude Desktop, Cursor,
 * .mcp.json). When a document has both, "servers" wins and `ignored` names "mcpServers", so each
 * caller says so (a file shows a problem and loads the rest; a paste is refused).
 */
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';

export const SERVERS_KEYS = ['servers', 'mcpServers'] as const;
export type ServersKey = (typeof SERVERS_KEYS)[number];

export type JsoncResult = { ok: true; value: unknown } | { ok: false; line: number; column: number; reason: string };

/** Parse JSON with comments and trailing commas; the first syntax error with its 1-based line and column. */
export function parseJsonc(text: string): JsoncResult {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (!first) return { ok: true, value };
  const reason = printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return { ok: false, ...lineColumn(text, first.offset), reason };
}

export type ServersDocument =
  | {
      ok: true;
      /** The document's top-level object. */
      top: Record<string, unknown>;
      /** Where the servers are; undefined when the document has neither key (and bare entries were not asked for). */
      key: ServersKey | undefined;
      /** The named entries as written (an empty object when there are none). */
      entries: Record<string, unknown>;
      /** "mcpServers" when "servers" is present too: its entries were not read. */
      ignored?: ServersKey;
    }
  | ({ ok: false; fault: 'syntax' } & Omit<Extract<JsoncResult, { ok: false }>, 'ok'>)
  | { ok: false; fault: 'top' }
  | { ok: false; fault: 'entries'; key: ServersKey; top: Record<string, unknown> };

/**
 * Read a servers document. `bare: true` (a pasted snippet) takes a top level with neither key as
 * the entries themselves: {"name": {...}}.
 */
export function readServersDocument(text: string, options: { bare?: boolean } = {}): ServersDocument {
  const parsed = parseJsonc(text);
  if (!parsed.ok) {
    const { ok: _ok, ...where } = parsed;
    return { ok: false, fault: 'syntax', ...where };
  }
  const top = parsed.value;
  if (!isObject(top)) return { ok: false, fault: 'top' };
  // Own keys only: jsonc-parser turns a top-level "__proto__" into the object's prototype, whose keys must not count.
  const present = SERVERS_KEYS.filter((k) => Object.hasOwn(top, k));
  const key = present[0];
  const ignored = present[1];
  if (key === undefined) return { ok: true, top, key, entries: options.bare ? top : {} };
  const entries = top[key];
  if (!isObject(entries)) return { ok: false, fault: 'entries', key, top };
  return { ok: true, top, key, entries, ...(ignored ? { ignored } : {}) };
}

/** What a document with both keys is told, in every place that reads one. */
export const ignoredKeyMessage = (ignored: ServersKey): string =>
  `"${ignored}" was ignored because "servers" is present too; keep your servers under one of them`;

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
