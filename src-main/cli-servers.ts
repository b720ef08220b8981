// `switchboard add`, `import` and `approve`: what the Servers page does, from a terminal, through the
// same config handlers and trust store (no second implementation), without starting any server.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { IMPORT_CLIENTS, type ImportClient, type ServerEntry } from '../src-preload/contract/config';
import { parseInput, serverName, type InvokeName } from '../src-preload/contract';
import { configHandlers, type ConfigHandlers } from './core/config/config-handlers';
import { loadConfig, type LoadedConfig } from './core/config/load-config';
import { TrustStore } from './core/config/trust-store';
import type { SecretVault } from './core/ports';

export const SERVERS_USAGE = `  switchboard add <name> [--env KEY=VALUE]... [--header KEY=VALUE]... <command> [args...] | <url>
                                                      add a server to servers.json: a command line (everything
                                                      after the command is its arguments) or an http(s) URL
  switchboard import <claude-desktop|vscode|cursor> [--file PATH] [--only NAME]... [--folder DIR] [--yes]
                                                      copy servers from another app's config into servers.json;
                                                      VS Code inputs are read from standard input, one line each
  switchboard approve <server> [--yes]                let a project or bundle server run: shows what it runs and
                                                      asks y/N (--yes approves without asking)`;

export type ServersCommand =
  | { name: 'add'; server: string; entry: ServerEntry }
  | { name: 'import'; client: ImportClient; file?: string; only: string[]; folder?: string; yes: boolean }
  | { name: 'approve'; server: string; yes: boolean };

export const SERVERS_COMMANDS = ['add', 'import', 'approve'] as const;

/** Parse add/import/approve arguments; throws a message for the usage error. */
export function parseServersCommand(argv: string[]): ServersCommand {
  const [command, ...rest] = argv;
  if (command === 'add') return parseAdd(rest);
  const flags = takeFlags(rest, ['--file', '--only', '--folder'], ['--yes']);
  if (command === 'approve') {
    if (flags.positional.length !== 1) throw new Error('approve needs exactly one server name');
    if (flags.values.size) throw new Error(`approve takes only --yes, got ${[...flags.values.keys()][0]}`);
    return { name: 'approve', server: flags.positional[0]!, yes: flags.switches.has('--yes') };
  }
  const [client, extra] = flags.positional;
  if (!client || !(IMPORT_CLIENTS as readonly string[]).includes(client)) throw new Error(`import needs the app to import from: ${IMPORT_CLIENTS.join(', ')}`);
  if (extra !== undefined) throw new Error(`import takes one app, got an extra "${extra}"`);
  const file = flags.values.get('--file')?.[0];
  const folder = flags.values.get('--folder')?.[0];
  return {
    name: 'import',
    client: client as ImportClient,
    only: flags.values.get('--only') ?? [],
    yes: flags.switches.has('--yes'),
    ...(file ? { file: resolve(file) } : {}),
    ...(folder ? { folder: resolve(folder) } : {}),
  };
}

/** `add <name> [--env K=V] [--header K=V] <command> [args…]`: options end where the command starts, so its own flags stay its own. */
function parseAdd(rest: string[]): ServersCommand {
  const [server, ...tail] = rest;
  if (!server || server.startsWith('--')) throw new Error('add needs a server name first: switchboard add <name> <command> [args...]');
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let at = 0;
  for (; at < tail.length && (tail[at] === '--env' || tail[at] === '--header'); at += 2) {
    const pair = tail[at + 1];
    const eq = pair?.indexOf('=') ?? -1;
    if (!pair || eq < 1) throw new Error(`${tail[at]} takes KEY=VALUE, got "${pair ?? ''}"`);
    (tail[at] === '--env' ? env : headers)[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  if (tail[at] === '--') at++;
  const [target, ...args] = tail.slice(at);
  if (!target) throw new Error(`add needs a command or a URL for "${server}"`);
  if (target.startsWith('--')) throw new Error(`unknown option ${target} (options go before the command)`);
  const words = [target, ...args];
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(words[0]!)) {
    if (words.length > 1) throw new Error(`a URL takes no arguments, got "${words[1]}"`);
    if (Object.keys(env).length) throw new Error('--env is for a command; a URL server takes --header');
    return { name: 'add', server, entry: { url: words[0], ...(Object.keys(headers).length ? { headers } : {}) } };
  }
  if (Object.keys(headers).length) throw new Error('--header is for a URL server; a command takes --env');
  // `add name "npx -y pkg"`: the quotes made the line one word, which would run as one program's name (issue 23 item 2).
  if (args.length === 0 && /\s/.test(target.trim()) && !existsSync(target)) {
    throw new Error(`"${target}" is a whole command line in one word: give the command and its arguments unquoted, e.g. switchboard add ${server} ${target.trim()}`);
  }
  return { name: 'add', server, entry: { command: words[0], ...(words.length > 1 ? { args: words.slice(1) } : {}), ...(Object.keys(env).length ? { env } : {}) } };
}

function takeFlags(argv: string[], valued: string[], switches: string[]): { positional: string[]; values: Map<string, string[]>; switches: Set<string> } {
  const result = { positional: [] as string[], values: new Map<string, string[]>(), switches: new Set<string>() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (valued.includes(arg)) {
      const value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new Error(`${arg} needs a value`);
      result.values.set(arg, [...(result.values.get(arg) ?? []), value]);
    } else if (switches.includes(arg)) result.switches.add(arg);
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else result.positional.push(arg);
  }
  return result;
}

export async function runServersCommand(command: ServersCommand, home: string, vault: SecretVault): Promise<number> {
  let loaded: LoadedConfig = await loadConfig({ home });
  const handlers = configHandlers({
    home,
    vault,
    trust: () => TrustStore.open(home),
    current: () => loaded,
    reload: async () => (loaded = await loadConfig({ home, previous: loaded })),
    // No server runs here; a running app starts an approved one when it sees the change.
    reconnect: async () => {},
    ...(command.name === 'import' && command.file ? { clientConfigPaths: { [command.client]: command.file } } : {}),
  });
  const call = <K extends keyof ConfigHandlers & InvokeName>(method: K, payload: unknown) => {
    // The contract's own schema, as for the window: a bad name is refused here with the same words.
    const input = parseInput(method, payload);
    if (!input.ok) throw new Error(input.error.message);
    return (handlers[method] as (input: unknown) => ReturnType<ConfigHandlers[K]>)(input.value);
  };
  switch (command.name) {
    case 'add': {
      // The contract's own rule, in the person's words rather than the call's ("addServer: invalid payload at …").
      const name = serverName.safeParse(command.server);
      if (!name.success) throw new Error(`"${command.server}" cannot be a server name: ${name.error.issues[0]!.message}`);
      await call('addServer', { name: command.server, entry: command.entry });
      console.log(`added "${command.server}" to ${loaded.servers.find((s) => s.name === command.server)?.source.path ?? 'servers.json'}: ${describeEntry(command.entry)}`);
      return 0;
    }
    case 'import':
      return importFrom(command, call);
    case 'approve':
      return approve(command, loaded, call);
  }
}

type Call = <K extends keyof ConfigHandlers & InvokeName>(method: K, payload: unknown) => ReturnType<ConfigHandlers[K]>;

async function importFrom(command: Extract<ServersCommand, { name: 'import' }>, call: Call): Promise<number> {
  const folder = command.folder ? { workspaceFolder: command.folder } : {};
  const preview = await call('previewImport', { client: command.client, ...folder });
  if (!preview.found) throw new Error(`no ${command.client} config at ${preview.path}`);
  for (const problem of preview.problems) console.log(`  ! ${problem.message}`);
  for (const refused of preview.refused) console.log(`  skipped ${refused.name}: ${refused.reason}${preview.needsFolder && !command.folder && refused.reason.includes('${workspaceFolder}') ? ' (--folder DIR)' : ''}`);
  const unknown = command.only.filter((name) => !preview.toAdd.some((item) => item.name === name));
  if (unknown.length) throw new Error(`${preview.path} has no importable server named ${unknown.map((n) => `"${n}"`).join(', ')}`);
  const picked = preview.toAdd.filter((item) => command.only.length === 0 || command.only.includes(item.name));
  if (!picked.length) {
    console.log(`nothing to import from ${preview.path}`);
    return preview.refused.length ? 1 : 0;
  }
  console.log(`from ${preview.path}:`);
  for (const item of picked) console.log(`  ${item.importAs}${item.importAs !== item.name ? ` (was ${item.name})` : ''}: ${describeEntry(item.entry)}`);
  if (!(await confirmed(command.yes, `import ${picked.length} server${picked.length === 1 ? '' : 's'} into servers.json?`))) return 1;
  const answers = await readInputs(preview.inputs.filter((input) => picked.some((item) => item.inputs.includes(input.id))));
  const { added } = await call('importServers', { client: command.client, items: picked.map((item) => ({ name: item.name, as: item.importAs })), ...(answers ? { answers } : {}), ...folder });
  console.log(`imported ${added.join(', ')}`);
  return 0;
}

async function approve(command: Extract<ServersCommand, { name: 'approve' }>, loaded: LoadedConfig, call: Call): Promise<number> {
  const server = loaded.servers.find((s) => s.name === command.server);
  if (!server) throw new Error(`no server named "${command.server}"`);
  // What the approval covers, as the window's approval card shows it (literal env values masked).
  const view = await call('getServerEntry', { name: command.server });
  console.log(`${command.server} (${view.origin === 'bundle' ? 'installed bundle' : view.origin}, ${view.source}) runs:`);
  console.log(`  ${describeEntry(view.entry)}`);
  if (!(await confirmed(command.yes, `approve ${command.server} to run this?`))) return 1;
  await call('approveTrust', { name: command.server });
  console.log(`approved "${command.server}"; any change to what it runs asks again`);
  return 0;
}

/** y/N on a terminal; without one, only --yes approves (a script must say so). */
async function confirmed(yes: boolean, question: string): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY) {
    console.error(`switchboard: nothing changed: there is no terminal to answer "${question}"; run it in a terminal, or add --yes to answer yes`);
    return false;
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await new Promise<string>((done) => rl.question(`${question} [y/N] `, done));
  rl.close();
  const ok = /^y(es)?$/i.test(answer.trim());
  if (!ok) console.error('switchboard: nothing changed');
  return ok;
}

async function readInputs(inputs: { id: string; description: string }[]): Promise<Record<string, string> | undefined> {
  if (!inputs.length) return undefined;
  const lines = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  const answers: Record<string, string> = {};
  for (const input of inputs) {
    if (process.stdin.isTTY) process.stderr.write(`${input.description} (${input.id}): `);
    const line = await lines.next();
    if (!line.done) answers[input.id] = line.value;
  }
  await lines.return?.(undefined);
  return answers;
}

function describeEntry(entry: ServerEntry): string {
  if (typeof entry.url === 'string') return entry.url;
  const words = [entry.command, ...(Array.isArray(entry.args) ? entry.args : [])].map((word) => (/^[\w@./:=-]+$/.test(String(word)) ? String(word) : JSON.stringify(word)));
  const env = entry.env && typeof entry.env === 'object' ? Object.entries(entry.env as Record<string, unknown>).map(([key, value]) => `${key}=${String(value)}`) : [];
  return [...env, ...words].join(' ');
}
