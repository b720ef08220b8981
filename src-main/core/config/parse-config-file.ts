import { findNodeAtLocation, getNodeValue, parseTree } from 'jsonc-parser';
import type { ConfigProblem } from '../../../src-preload/contract';
import { ignoredKeyMessage, lineColumn, readServersDocument } from '../../../src-preload/contract/servers-document';
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

/**
 * Parse a config file's text (JSON with comments accepted, as VS Code writes them).
 * Never throws: a syntax error becomes one problem with line and column; a bad entry is
 * skipped with its own problem and the rest still load.
 */
export function parseConfigText(text: string, source: ConfigSource): ParsedConfigFile {
  const empty: ParsedConfigFile = { servers: [], problems: [], mcpDisabled: false };
  if (text.trim() === '') return empty; // a blank file (just created) holds no servers
  // The one reader decides where the servers are ("servers" wins over "mcpServers").
  const doc = readServersDocument(text);
  if (!doc.ok && doc.fault === 'syntax') {
    const { line, column, reason } = doc;
    return { ...empty, invalid: true, problems: [{ file: source.path, line, column, message: `${source.path}:${line}:${column}: invalid JSON (${reason})` }] };
  }
  if (!doc.ok && doc.fault === 'top') {
    return { ...empty, invalid: true, problems: [{ file: source.path, line: 1, column: 1, message: `${source.path}: the top level must be an object` }] };
  }
  const tree = parseTree(text);
  const mcpDisabled = Object.hasOwn(doc.top, 'disabled') && doc.top.disabled === true;
  if (!doc.ok) {
    const at = locate(text, tree, [doc.key]);
    return { ...empty, mcpDisabled, invalid: true, problems: [{ file: source.path, ...at, message: `${source.path}: "${doc.key}" must be an object of named servers` }] };
  }
  const { top, key, entries, ignored } = doc;
  if (!key) return { ...empty, mcpDisabled };

  const result: ParsedConfigFile = { servers: [], problems: [], mcpDisabled };
  if (ignored) result.problems.push({ file: source.path, ...locate(text, tree, [ignored]), message: `${source.path}: ${ignoredKeyMessage(ignored)}` });
  if (source.origin === 'vscode' && Object.hasOwn(top, 'inputs')) {
    // VS Code prompts for inputs itself; we have no prompt, so say why ${input:...} stays literal.
    result.problems.push({
      file: source.path,
      ...locate(text, tree, ['inputs']),
      message: inputsIgnoredMessage(source.path),
      note: true,
    });
  }
  for (const [name, raw] of Object.entries(entries)) {
    const checked = validateServerEntry(name, raw, source);
    if (checked.ok) {
      result.servers.push(checked.server);
      for (const note of checked.notes ?? []) result.problems.push({ file: source.path, server: name, ...locate(text, tree, [key, name]), message: note, note: true });
    } else result.problems.push({ file: source.path, server: name, ...locate(text, tree, [key, name]), message: checked.message });
  }
  // jsonc-parser makes a "__proto__" key the object's prototype, so the loop above never sees it; the tree does.
  const hidden = tree && findNodeAtLocation(tree, [key, '__proto__']);
  if (hidden) {
    const checked = validateServerEntry('__proto__', getNodeValue(hidden), source);
    if (!checked.ok) result.problems.push({ file: source.path, server: '__proto__', ...locate(text, tree, [key, '__proto__']), message: checked.message });
  }
  return result;
}

function locate(text: string, tree: ReturnType<typeof parseTree>, path: string[]): { line?: number; column?: number } {
  const node = tree && findNodeAtLocation(tree, path);
  // Point at the property name when there is one: that is what the user looks for.
  const offset = node?.parent?.type === 'property' ? node.parent.offset : node?.offset;
  return offset === undefined ? {} : lineColumn(text, offset);
}

/** A project's .vscode/mcp.json "inputs" have no prompt in Switchboard (an import asks them instead). */
export const inputsIgnoredMessage = (path: string): string => `${path}: "inputs" are not supported and were ignored; \${input:...} references stay as written`;
