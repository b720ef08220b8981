import { homedir } from 'node:os';
import { basename, join, sep } from 'node:path';
import type { ImportClient } from '../../../src-preload/contract/config';
import { claudeDesktopConfigPath } from './claude-desktop';

/**
 * Other MCP clients' user-level config files, and their ${…} variables in Switchboard's terms.
 * - Claude Desktop: claude_desktop_config.json (see claudeDesktopConfigPath); no variables.
 * - Cursor: ~/.cursor/mcp.json on every OS (%USERPROFILE%\.cursor\mcp.json on Windows);
 *   ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator}
 *   and ${/} (https://cursor.com/docs/mcp, "Config interpolation").
 * - VS Code: the user profile's mcp.json ("MCP: Open User Configuration"): Code/User/mcp.json
 *   under ~/.config (Linux), ~/Library/Application Support (macOS) or %APPDATA% (Windows); the
 *   same variables plus ${input:ID} declared in its "inputs"
 *   (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration).
 */
export const clientLabel: Record<ImportClient, string> = { 'claude-desktop': 'Claude Desktop', cursor: 'Cursor', vscode: 'VS Code' };

export function clientConfigPath(client: ImportClient, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = (platform === 'win32' ? env.USERPROFILE : env.HOME) || homedir();
  if (client === 'claude-desktop') return claudeDesktopConfigPath(env, platform);
  if (client === 'cursor') return join(home, '.cursor', 'mcp.json');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User', 'mcp.json');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Code', 'User', 'mcp.json');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Code', 'User', 'mcp.json');
}

/** A VS Code input: asked once per import; a password input's value goes to the keychain. */
export interface ClientInput {
  id: string;
  description: string;
  password: boolean;
}

export interface TranslateContext {
  /** What ${workspaceFolder} stands for; absent until the person gives it. */
  workspaceFolder?: string;
  home: string;
  /** Inputs the file declares, by id. */
  inputs: Map<string, ClientInput>;
}

export interface Translated {
  entry: Record<string, unknown>;
  /** Ids of the inputs the entry uses, in order of first use. */
  inputs: string[];
  /** Why it cannot be imported as it is, one reason per variable; empty when it can. */
  problems: string[];
}

/** Marks where an input's value goes until the person has given it (private-use characters, as the registry mapping does). */
export const inputMark = (id: string): string => `\uE010${id}\uE011`;
export const INPUT_MARK = /\uE010([^\uE011]*)\uE011/g;

const VARIABLE = /\$\{([^}]*)\}/g;

/** The entry with the client's variables turned into Switchboard's: ${env:X} → ${X}, folders and the home written out, inputs marked. */
export function translateEntry(raw: Record<string, unknown>, context: TranslateContext): Translated {
  const result: Translated = { entry: {}, inputs: [], problems: [] };
  const seen = new Set<string>();
  const text = (value: string): string =>
    value.replace(VARIABLE, (whole, inner: string) => {
      const replaced = replacement(inner, context);
      if (typeof replaced === 'string') return replaced;
      if ('input' in replaced) {
        if (!result.inputs.includes(replaced.input)) result.inputs.push(replaced.input);
        return inputMark(replaced.input);
      }
      if (!seen.has(whole)) result.problems.push(`${whole} ${replaced.problem}`);
      seen.add(whole);
      return whole;
    });
  for (const [key, value] of Object.entries(raw)) {
    if (typeof value === 'string' && ['command', 'cwd', 'url'].includes(key)) result.entry[key] = text(value);
    else if (key === 'args' && Array.isArray(value)) result.entry[key] = value.map((v) => (typeof v === 'string' ? text(v) : v));
    else if ((key === 'env' || key === 'headers') && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      result.entry[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? text(v) : v]));
    } else result.entry[key] = value;
  }
  if (typeof raw.envFile === 'string') result.problems.push(`"envFile" (${raw.envFile}) is not something Switchboard reads; put those variables under "env"`);
  return result;
}

type Replacement = string | { input: string } | { problem: string };

function replacement(inner: string, context: TranslateContext): Replacement {
  const env = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(inner);
  if (env) return `\${${env[1]}}`; // read from the environment when the server starts, as the other client would
  if (inner === 'userHome') return context.home;
  if (inner === 'pathSeparator' || inner === '/') return sep;
  if (inner === 'workspaceFolder' || inner === 'workspaceFolderBasename') {
    if (!context.workspaceFolder) return { problem: 'stands for a project folder: give the folder to import it' };
    return inner === 'workspaceFolder' ? context.workspaceFolder : basename(context.workspaceFolder);
  }
  const input = /^input:(.+)$/.exec(inner);
  if (input) return context.inputs.has(input[1]!) ? { input: input[1]! } : { problem: 'is not declared in the file\'s "inputs"' };
  if (inner.startsWith('secret:')) return { problem: "names a Switchboard keychain secret, which another app's file may not" };
  if (inner.startsWith('cmd:')) return { problem: 'runs a command, which only Switchboard\'s own servers.json may ask for' };
  if (/^[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?$/.test(inner)) return `\${${inner}}`; // already Switchboard's form
  return { problem: 'is not a variable Switchboard can resolve' };
}

/** The inputs a VS Code file declares ("promptString" only; a "pickString" has no answer to type). */
export function declaredInputs(top: Record<string, unknown> | undefined): Map<string, ClientInput> {
  const inputs = new Map<string, ClientInput>();
  const list = top?.inputs;
  if (!Array.isArray(list)) return inputs;
  for (const item of list as Record<string, unknown>[]) {
    if (typeof item?.id !== 'string' || item.type !== 'promptString') continue;
    inputs.set(item.id, { id: item.id, description: typeof item.description === 'string' ? item.description : item.id, password: item.password === true });
  }
  return inputs;
}
