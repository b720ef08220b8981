import { homedir } from 'node:os';
import { basename, dirname, sep } from 'node:path';
import type { SecretVault } from '../ports';
import { CommandSecretFailure, type CommandSecrets } from '../secrets/command-secrets';
import { secretReferenceProblem } from '../secrets/secret-name';
import type { ServerConfig } from './server-config';

export type ExpandResult = { ok: true; config: ServerConfig; warnings: string[] } | { ok: false; message: string };

/**
 * `${secret:NAME}`, `${cmd:COMMAND}`, `${VAR:-default}`, `${VAR}` or `${env:VAR}` (VS Code's and Cursor's
 * spelling). A variable name is what a shell accepts; a default or a command runs to the first "}"
 * (no nesting, as in the MCP configs people copy from).
 */
const REFERENCE_SOURCE = String.raw`\$\{(?:secret:([^}\s]+)|cmd:([^}]*)|env:([A-Za-z_][A-Za-z0-9_]*)|([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?)\}`;
/** Non-global on purpose: a global regex carries lastIndex between calls (and matchAll copies it). */
const REFERENCE = new RegExp(REFERENCE_SOURCE);

/** True when a string holds at least one `${...}` reference, i.e. its value is not written out in the file. */
export function hasReference(value: string): boolean {
  return REFERENCE.test(value);
}

/** The secrets and environment variables a value is built from, in order of appearance. */
export function referencesIn(value: string): { secrets: string[]; variables: string[]; commands: string[] } {
  const found = { secrets: [] as string[], variables: [] as string[], commands: [] as string[] };
  for (const match of value.matchAll(new RegExp(REFERENCE_SOURCE, 'g'))) {
    if (match[1] !== undefined) found.secrets.push(match[1]);
    else if (match[2] !== undefined) found.commands.push(match[2]);
    else if (match[3] !== undefined || match[4] !== undefined) found.variables.push((match[3] ?? match[4])!);
  }
  return found;
}

/**
 * Expand `${VAR}`, `${VAR:-default}` and `${secret:NAME}` in the launch-relevant string fields
 * (command, args, env values, cwd, url, header values). Called at connect time, so secrets are
 * read from the vault only then and never stored in the config.
 * An unset variable stays literal with a warning naming it and the server; an unset secret or an
 * unreadable keychain is a failure (the caller puts the server in error and does not launch).
 * `${cmd:…}` runs a command, so only Switchboard's own servers.json, which the person writes, may
 * use it: in a project file, a bundle or another client's file it is a failure and nothing runs (SECURITY S4).
 * `${secret:NAME}` follows where the entry came from (secretReferenceProblem, SECURITY V1): a refused one fails
 * the server with the field named, before the keychain is touched.
 */
export async function expandServerConfig(config: ServerConfig, env: NodeJS.ProcessEnv, vault: SecretVault, commands?: Pick<CommandSecrets, 'read'>): Promise<ExpandResult> {
  const expander = new Expander(config, env, vault, commands);
  try {
    if (config.kind === 'stdio') {
      const expanded: ServerConfig = {
        ...config,
        command: await expander.expand(config.command, 'command'),
        args: await expander.expandAll(config.args, 'args'),
        env: await expander.expandValues(config.env, 'env'),
        ...(config.cwd !== undefined ? { cwd: await expander.expand(config.cwd, 'cwd') } : {}),
      };
      return { ok: true, config: expanded, warnings: expander.warnings };
    }
    const url = await expander.expand(config.url, 'url');
    if (!isHttpUrl(url)) {
      // The expanded URL is not echoed: a reference may have put a secret into it.
      return { ok: false, message: `server "${config.name}": "url" is not a valid http or https URL after expanding ${config.url}` };
    }
    const expanded: ServerConfig = {
      ...config,
      url,
      headers: await expander.expandValues(config.headers, 'headers'),
    };
    return { ok: true, config: expanded, warnings: expander.warnings };
  } catch (error) {
    if (error instanceof SecretFailure) return { ok: false, message: error.message };
    if (error instanceof CommandSecretFailure) return { ok: false, message: `server "${config.name}": ${error.message}` };
    throw error;
  }
}

function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol } = new URL(value);
  return protocol === 'https:' || protocol === 'http:';
}

class SecretFailure extends Error {}

class Expander {
  readonly warnings: string[] = [];
  private readonly warned = new Set<string>();
  /** One vault read per secret per expansion, however often it is referenced. */
  private readonly secrets = new Map<string, Promise<string>>();

  private readonly server: string;

  constructor(
    private readonly config: ServerConfig,
    private readonly env: NodeJS.ProcessEnv,
    private readonly vault: SecretVault,
    private readonly commands: Pick<CommandSecrets, 'read'> | undefined,
  ) {
    this.server = config.name;
  }

  async expandAll(values: string[], field: string): Promise<string[]> {
    const out: string[] = [];
    for (const [i, value] of values.entries()) out.push(await this.expand(value, `${field}[${i}]`));
    return out;
  }

  async expandValues(map: Record<string, string>, field: string): Promise<Record<string, string>> {
    const entries: [string, string][] = [];
    for (const [key, value] of Object.entries(map)) entries.push([key, await this.expand(value, `${field}.${key}`)]);
    return Object.fromEntries(entries); // fromEntries defines keys, so "__proto__" stays a plain key
  }

  /** `field` names where the value sits (args[1], headers.Authorization) for a refusal's message. */
  async expand(value: string, field: string): Promise<string> {
    let result = '';
    let last = 0;
    for (const match of value.matchAll(new RegExp(REFERENCE_SOURCE, 'g'))) {
      const [whole, secretName, command, envName, variable, fallback] = match;
      result += value.slice(last, match.index);
      last = match.index + whole.length;
      if (secretName !== undefined) result += await this.secret(secretName, field);
      else if (command !== undefined) result += await this.command(command);
      else result += this.editorVariable(variable) ?? this.variable((envName ?? variable)!, fallback, whole);
    }
    return result + value.slice(last);
  }

  /**
   * In a project's .vscode/mcp.json or .cursor/mcp.json, the editors' own variables: ${workspaceFolder}
   * is that project's folder, ${userHome} the home folder (https://code.visualstudio.com/docs/reference/variables-reference).
   */
  private editorVariable(name: string | undefined): string | undefined {
    const { source } = this.config;
    if (name === undefined || (source.origin !== 'vscode' && source.origin !== 'cursor')) return undefined;
    const project = dirname(dirname(source.path));
    if (name === 'workspaceFolder') return project;
    if (name === 'workspaceFolderBasename') return basename(project);
    if (name === 'userHome') return this.env.HOME || homedir();
    if (name === 'pathSeparator') return sep;
    return undefined;
  }

  private variable(name: string, fallback: string | undefined, literal: string): string {
    const value = this.env[name];
    // As in a shell: ":-" uses the default when the variable is unset or empty.
    if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
    if (value !== undefined) return value;
    if (!this.warned.has(name)) {
      this.warned.add(name);
      this.warnings.push(`server "${this.server}": environment variable ${name} is not set; "${literal}" was left as is`);
    }
    return literal;
  }

  private command(text: string): Promise<string> {
    const { source } = this.config;
    if (source.origin !== 'switchboard') {
      throw new SecretFailure(`server "${this.server}": \${cmd:${text}} runs a command, which only Switchboard's own servers.json may ask for, not ${source.path}`);
    }
    if (!this.commands) throw new SecretFailure(`server "${this.server}": \${cmd:${text}} cannot run here`);
    return this.commands.read(text);
  }

  private secret(name: string, field: string): Promise<string> {
    const refused = secretReferenceProblem(name, this.config.source, this.server);
    if (refused) throw new SecretFailure(`server "${this.server}": "${field}" asks for \${secret:${name}}, refused: ${refused}`);
    let pending = this.secrets.get(name);
    if (!pending) {
      pending = this.readSecret(name);
      this.secrets.set(name, pending);
    }
    return pending;
  }

  private async readSecret(name: string): Promise<string> {
    let value: string | undefined;
    try {
      value = await this.vault.get(name);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      throw new SecretFailure(`secret ${name} could not be read from the OS keychain: ${detail}`);
    }
    if (value === undefined) throw new SecretFailure(`secret ${name} is not set`);
    return value;
  }
}
