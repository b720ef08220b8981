import { findNodeAtLocation, getNodeValue, parse, parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { ConfigProblem } from '../../../src-preload/contract';
import type { ConfigSource, ServerConfig } from './server-config';
import { validateServerEntry } from './validate-server';

export interface ParsedConfigFile {
  servers: ServerConfig[];
  problems: ConfigProblem[];
  /** The file's "disabled": true switches MCP off as a whole (Switchboard's own file only). */
  mcpDisabled: boolean;
  /** True when the file as a whole could not be read (syntax, shape): none of its entries was looked at. */
  invalid?: boolean;
}

/** Where a file keeps its servers: ours and VS Code use "servers", Claude Desktop/Cursor/.mcp.json "mcpServers". */
const SERVER_KEYS = ['servers', 'mcpServers'] as const;

/**
 * Parse a config file's text (JSON with comments accepted, as VS Code writes them).
 * Never throws: a syntax error becomes one problem with line and column; a bad entry is
 * skipped with its own problem and the rest still load.
 */
export function parseConfigText(text: string, source: ConfigSource): ParsedConfigFile {
  const empty: ParsedConfigFile = { servers: [], problems: [], mcpDisabled: false };
  if (text.trim() === '') return empty; // a blank file (just created) holds no servers
  const errors: ParseError[] = [];
  // VS Code writes JSONC: comments and trailing commas are both accepted.
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const { line, column } = lineColumn(text, first.offset);
    return {
      ...empty,
      invalid: true,
      problems: [{ file: source.path, line, column, message: `${source.path}:${line}:${column}: invalid JSON (${describe(first)})` }],
    };
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    return { ...empty, invalid: true, problems: [{ file: source.path, line: 1, column: 1, message: `${source.path}: the top level must be an object` }] };
  }
  const top = root as Record<string, unknown>;
  const key = SERVER_KEYS.find((k) => k in top);
  const mcpDisabled = top.disabled === true;
  if (!key) return { ...empty, mcpDisabled };
  const entries = top[key];
  const tree = parseTree(text);
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    const at = locate(text, tree, [key]);
    return { ...empty, mcpDisabled, invalid: true, problems: [{ file: source.path, ...at, message: `${source.path}: "${key}" must be an object of named servers` }] };
  }

  const result: ParsedConfigFile = { servers: [], problems: [], mcpDisabled };
  if (source.origin === 'vscode' && 'inputs' in top) {
    // VS Code prompts for inputs itself; we have no prompt, so say why ${input:...} stays literal.
    result.problems.push({
      file: source.path,
      ...locate(text, tree, ['inputs']),
      message: `${source.path}: "inputs" are not supported and were ignored; \${input:...} references stay as written`,
    });
  }
  for (const [name, raw] of Object.entries(entries as Record<string, unknown>)) {
    const checked = validateServerEntry(name, raw, source);
    if (checked.ok) result.servers.push(checked.server);
    else result.problems.push({ file: source.path, server: name, ...locate(text, tree, [key, name]), message: checked.message });
  }
  // jsonc-parser makes a "__proto__" key the object's prototype, so the loop above never sees it; the tree does.
  const hidden = tree && findNodeAtLocation(tree, [key, '__proto__']);
  if (hidden) {
    const checked = validateServerEntry('__proto__', getNodeValue(hidden), source);
    if (!checked.ok) result.problems.push({ file: source.path, server: '__proto__', ...locate(text, tree, [key, '__proto__']), message: checked.message });
  }
  return result;
}

function describe(error: ParseError): string {
  return printParseErrorCode(error.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function locate(text: string, tree: ReturnType<typeof parseTree>, path: string[]): { line?: number; column?: number } {
  const node = tree && findNodeAtLocation(tree, path);
  // Point at the property name when there is one: that is what the user looks for.
  const offset = node?.parent?.type === 'property' ? node.parent.offset : node?.offset;
  return offset === undefined ? {} : lineColumn(text, offset);
}

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
