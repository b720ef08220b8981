#!/usr/bin/env node
// The switchboard CLI: the same core as the app, in plain Node, honouring SWITCHBOARD_HOME.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { INSTALL_USAGE, parseInstallCommand, runInstallCommand, type InstallCommand } from './cli-install';
import { parseServersCommand, runServersCommand, SERVERS_COMMANDS, SERVERS_USAGE } from './cli-servers';
import { isDeepStrictEqual } from 'node:util';
import { dataHome } from './core/data-home';
import type { CatalogTool } from './core/mcp/tool-catalog';
import type { ToolResult } from './core/mcp/call-result';
import { resultOrThrow } from './core/tools/tool-caller';
import { AppFailure } from './core/app-error';
import { diagnoseToolResult } from './core/diagnosis/call-diagnosis';
import { describeDiagnosis } from './core/diagnosis/diagnosis';
import { diagnoseServer, serverFix } from './core/diagnosis/server-diagnosis';
import { readPolicySync } from './core/policy/policy-file';
import { SET_BY_ORGANIZATION } from './core/policy/policy-rules';
import { policyView } from './core/policy/policy-view';
import type { PolicyView } from '../src-preload/contract/policy';
import type { ServerStatus } from './core/mcp/mcp-manager';
import type { Logger, SecretVault, UrlOpener } from './core/ports';
import { KeychainUnavailableError, KeytarVault } from './core/secrets/keytar-vault';
import type { Scrubber } from './core/secrets/scrubber';
import { SwitchboardCore } from './core/switchboard-core';
import { SystemOpener } from './host/system-opener';

const USAGE = `usage:
  switchboard status [--json]                         every server: source, state, reason and how to fix it
  switchboard doctor [--bundle <path>] [--json]       the same report; --bundle also writes a diagnostics zip
                                                      (versions, OS, states, recent logs, config without secrets)
  switchboard tools [server] [--json]                 the tool catalog (namespaced names)
  switchboard call <server> <tool> [json-args] [--json]
                                                      call one tool; json-args is a JSON object
  switchboard login <server>                          sign in to a remote server in your browser
  switchboard logout <server>                         sign out; its credentials leave the keychain
${INSTALL_USAGE}
${SERVERS_USAGE}
exit codes: 0 ok; 1 failure (status: some enabled server is not connected; call: the call or the tool failed); 2 usage
config: $SWITCHBOARD_HOME/servers.json (now ${dataHome()})`;

class UsageError extends Error {}

type Command =
  | { name: 'status'; json: boolean }
  | { name: 'doctor'; json: boolean; bundle?: string }
  | { name: 'tools'; server?: string; json: boolean }
  | { name: 'call'; server: string; tool: string; args: Record<string, unknown>; json: boolean }
  | { name: 'login'; server: string }
  | { name: 'logout'; server: string };

function parseCommand(all: string[]): Command | 'help' {
  const { argv, bundle } = takeBundle(all);
  const json = argv.includes('--json');
  const unknownFlag = argv.find((a) => a.startsWith('--') && a !== '--json' && a !== '--help');
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') return 'help';
  if (unknownFlag) throw new UsageError(`unknown option ${unknownFlag}`);
  const [name, ...rest] = argv.filter((a) => a !== '--json');
  if (bundle !== undefined && name !== 'doctor') throw new UsageError('--bundle goes with doctor: switchboard doctor --bundle <path>');
  switch (name) {
    case 'status':
      if (rest.length) throw new UsageError(`status takes no arguments, got "${rest[0]}"`);
      return { name, json };
    case 'doctor':
      if (rest.length) throw new UsageError(`doctor takes no arguments, got "${rest[0]}"`);
      return { name, json, ...(bundle !== undefined ? { bundle } : {}) };
    case 'tools':
      if (rest.length > 1) throw new UsageError(`tools takes at most one server name, got ${rest.length} arguments`);
      return { name, json, ...(rest[0] ? { server: rest[0] } : {}) };
    case 'call': {
      const [server, tool, rawArgs, extra] = rest;
      if (!server || !tool) throw new UsageError('call needs a server and a tool');
      if (extra !== undefined) throw new UsageError(`call takes one json-args argument; got an extra "${extra}" (quote the JSON)`);
      return { name, server, tool, args: parseArgs(rawArgs), json };
    }
    case 'login':
    case 'logout':
      if (rest.length !== 1) throw new UsageError(`${name} needs exactly one server name`);
      return { name, server: rest[0]! };
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

/** `--bundle <path>` (or `--bundle=<path>`) taken out of the arguments. */
function takeBundle(argv: string[]): { argv: string[]; bundle?: string } {
  const at = argv.findIndex((a) => a === '--bundle' || a.startsWith('--bundle='));
  if (at === -1) return { argv };
  const arg = argv[at]!;
  const path = arg === '--bundle' ? argv[at + 1] : arg.slice('--bundle='.length);
  if (!path || path.startsWith('--')) throw new UsageError('--bundle needs a file path, e.g. switchboard doctor --bundle diagnostics.zip');
  return { argv: argv.filter((_, i) => i !== at && !(arg === '--bundle' && i === at + 1)), bundle: path };
}

function parseArgs(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`json-args is not valid JSON (${(error as Error).message}); e.g. '{"message":"hi"}'`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`json-args must be a JSON object, e.g. '{"message":"hi"}'`);
  return parsed as Record<string, unknown>;
}

const silent: Logger = { info: () => {}, warn: () => {}, error: () => {} };

/** Where a command prints: stdout and stderr. */
interface Terminal {
  out(text: string): void;
  err(text: string): void;
}

/** The CLI's print edge (SECURITY S7): every line a command prints is scrubbed of the secrets the core resolved. */
function terminal(scrubber: Scrubber): Terminal {
  return { out: (text) => console.log(scrubber.text(text)), err: (text) => console.error(scrubber.text(text)) };
}

/** The sign-in page goes to the system browser, and its address to the terminal for a machine without one. */
const terminalOpener: UrlOpener = {
  open: async (url) => {
    console.log(`open this address if no browser appears:\n  ${url}`);
    await new SystemOpener().open(url).catch((error: unknown) => console.error(`switchboard: ${error instanceof Error ? error.message : String(error)}`));
  },
};

/** The keychain is needed only for ${secret:…} references; without one, those servers say so and the rest work. */
function openVault(): SecretVault {
  try {
    return new KeytarVault();
  } catch (error) {
    const fail = async (): Promise<never> => {
      throw error instanceof KeychainUnavailableError ? error : new KeychainUnavailableError(String(error));
    };
    return { get: fail, set: fail, delete: fail, list: fail };
  }
}

async function run(command: Command, core: SwitchboardCore, say: Terminal): Promise<number> {
  await core.start();
  if (command.name === 'login') {
    say.out(`signing in to ${command.server}: finish in your browser (Ctrl+C to give up)`);
    const outcome = await core.handlers.signIn({ name: command.server });
    say.out(outcome.state === 'signed_in' ? `signed in to ${command.server}` : `sign-in to ${command.server} was cancelled`);
    return outcome.state === 'signed_in' ? 0 : 1;
  }
  if (command.name === 'logout') {
    await core.handlers.signOut({ name: command.server });
    say.out(`signed out of ${command.server}; its credentials were removed from the keychain`);
    return 0;
  }
  const longest = Math.max(30, ...core.mcp.statuses().map((s) => s.config.timeout)) * 1000;
  if (command.name === 'status' || command.name === 'doctor') {
    await core.mcp.settled(longest + 1000);
    if (command.name === 'doctor' && command.bundle !== undefined) {
      const path = resolve(command.bundle);
      await writeFile(path, await core.diagnosticsBundle());
      // On stderr, so `doctor --bundle x --json` still prints only the report's JSON.
      say.err(`diagnostics written to ${path} (secrets replaced; look inside before you share it)`);
    }
    return printStatus(core, command.json, say);
  }
  if (command.name === 'tools') {
    if (command.server !== undefined && !core.mcp.status(command.server)) throw new Error(`no server named "${command.server}"`);
    await core.mcp.settled(longest + 1000);
    return printTools(core.mcp.tools(command.server), command.json, say);
  }
  // The one call path with origin "cli": typing the command is the person's consent; disabled tools, bad arguments and deny rules still refuse.
  const result = resultOrThrow(await core.calls.caller.call({ server: command.server, tool: command.tool }, command.args, { origin: 'cli' }));
  printResult(result, command.json, say);
  return result.isError ? 1 : 0;
}

function printStatus(core: SwitchboardCore, json: boolean, say: Terminal): number {
  const statuses = core.mcp.statuses();
  const snapshot = core.snapshot();
  const rows = statuses.map((s) => ({
    name: s.name,
    source: s.config.source.path,
    transport: s.transport,
    state: s.state.kind,
    reason: s.state.reason,
    ...(s.state.kind === 'backing_off' ? { nextAttemptAt: new Date(s.state.nextAttemptAt).toISOString() } : {}),
    tools: s.toolCount,
    ...optionalHint(s),
    ...(s.state.kind === 'error' && s.state.stderrTail ? { stderr: s.state.stderrTail } : {}),
  }));
  const failing = statuses.filter((s) => s.config.enabled && s.state.kind !== 'connected' && s.state.kind !== 'disabled').length;
  const policy = policyView(readPolicySync(), statuses.map((s) => ({ name: s.name, approval: s.config.approval })));
  if (json) {
    say.out(JSON.stringify({ configPath: snapshot.configPath, status: snapshot.status, servers: rows, problems: snapshot.problems, policy }, null, 2));
    return failing ? 1 : 0;
  }
  say.out(`${snapshot.status.label} · config ${snapshot.configPath}`);
  const policyLine = describePolicy(policy);
  if (policyLine) say.out(`  ${policyLine}`);
  for (const problem of snapshot.problems) say.out(`  ${problem.note ? 'note:' : '!'} ${problem.message}`);
  if (!rows.length) say.out('  no servers configured');
  for (const row of rows) {
    say.out(`\n${row.state === 'connected' ? '●' : '○'} ${row.name}  ${row.state}  (${row.transport}, ${row.tools} tool${row.tools === 1 ? '' : 's'})`);
    say.out(`  ${row.reason}`);
    if (row.fix) say.out(`  fix${row.class ? ` (${row.class})` : ''}: ${row.fix}`);
    if (policy.autoOverridden.includes(row.name)) say.out(`  approval: auto, but every call asks (${SET_BY_ORGANIZATION})`);
    for (const line of row.stderr ?? []) say.out(`  | ${line}`);
    say.out(`  source: ${row.source}`);
  }
  return failing ? 1 : 0;
}

/** One line on what the administrator's policy decides here (SECURITY X2); nothing when there is none. */
function describePolicy(policy: PolicyView): string | undefined {
  if (policy.status === 'none') return undefined;
  if (policy.status === 'broken') return `! the policy ${SET_BY_ORGANIZATION} is broken (${policy.problem}): every server and install is refused until it is fixed`;
  const decides = [
    policy.approvalsLocked ? 'every tool call asks' : '',
    policy.sandboxRequired ? 'local servers run sandboxed' : '',
    policy.installs === 'off' ? 'nothing may be installed' : policy.installs === 'registry-only' ? 'installs only from the registry or the catalog' : '',
    policy.limitsServers ? 'some servers may not run' : '',
  ].filter(Boolean);
  return `policy ${SET_BY_ORGANIZATION} (${policy.path}): ${decides.length ? decides.join('; ') : 'nothing here'}`;
}

function optionalHint(status: ServerStatus): { fix?: string; class?: string } {
  const fix = serverFix(status.config, status.state);
  const diagnosis = diagnoseServer(status.config, status.state);
  return { ...(fix ? { fix } : {}), ...(diagnosis ? { class: diagnosis.class } : {}) };
}

function printTools(tools: CatalogTool[], json: boolean, say: Terminal): number {
  if (json) {
    say.out(JSON.stringify(tools, null, 2));
    return 0;
  }
  if (!tools.length) say.out('no tools (is any server connected? try: switchboard status)');
  for (const tool of tools) {
    const flags = [tool.enabled ? '' : 'disabled', tool.pending ? 'pending' : ''].filter(Boolean).join(', ');
    const summary = (tool.description ?? '').split('\n')[0]!.slice(0, 100);
    say.out(`${tool.qualifiedName}${flags ? ` [${flags}]` : ''}${summary ? `  ${summary}` : ''}`);
  }
  return 0;
}

function printResult(result: ToolResult, json: boolean, say: Terminal): void {
  if (json) {
    say.out(JSON.stringify(result, null, 2));
    return;
  }
  const diagnosis = diagnoseToolResult(result);
  if (result.isError) say.out(`the tool reported an error${diagnosis ? ` ${describeDiagnosis(diagnosis)}` : ''}:`);
  for (const part of result.content) {
    switch (part.type) {
      case 'text':
        say.out(part.text);
        break;
      case 'image':
      case 'audio':
        say.out(`[${part.type} ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`);
        break;
      case 'resource_link':
        say.out(`[link ${part.name}: ${part.uri}]`);
        break;
      case 'resource':
        say.out('text' in part.resource ? part.resource.text : `[resource ${part.resource.uri}${part.resource.mimeType ? ` ${part.resource.mimeType}` : ''}, binary]`);
        break;
    }
  }
  const { structuredContent } = result;
  if (structuredContent && !printedAlready(result, structuredContent)) say.out(JSON.stringify(structuredContent, null, 2));
}

/**
 * Structured content the text already said, printed once: as JSON text (the spec asks servers to send it),
 * or as an object of strings the text parts are (server-filesystem's `{ "content": <its text> }`).
 */
function printedAlready(result: ToolResult, structured: Record<string, unknown>): boolean {
  const texts = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : []));
  if (texts.some((text) => sameJson(text, structured))) return true;
  const values = Object.values(structured);
  return values.length > 0 && values.every((value) => typeof value === 'string' && texts.includes(value));
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return isDeepStrictEqual(JSON.parse(text), value);
  } catch {
    return false;
  }
}

/** A command that runs no server (install, add, import, approve): parse, then run, with the same exit codes. */
async function withoutCore<C>(argv: string[], parse: (argv: string[]) => C, runIt: (command: C, home: string, vault: SecretVault) => Promise<number>): Promise<number> {
  let command: C;
  try {
    command = parse(argv);
  } catch (error) {
    console.error(`switchboard: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    return await runIt(command, dataHome(), openVault());
  } catch (error) {
    console.error(`switchboard: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function main(argv: string[]): Promise<number> {
  if ((argv[0] === 'install' || argv[0] === 'uninstall') && !argv.includes('--help')) return withoutCore<InstallCommand>(argv, parseInstallCommand, runInstallCommand);
  // Only `add … --help` before the command asks for help: after it, --help is the server's own argument.
  if ((SERVERS_COMMANDS as readonly string[]).includes(argv[0] ?? '') && argv[1] !== '--help') return withoutCore(argv, parseServersCommand, runServersCommand);
  let command: Command | 'help';
  try {
    command = parseCommand(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`switchboard: ${error.message}\n${USAGE}`);
    return 2;
  }
  if (command === 'help') {
    console.log(USAGE);
    return 0;
  }
  const core = new SwitchboardCore({
    home: dataHome(),
    vault: openVault(),
    opener: terminalOpener,
    logger: silent,
    // Started from a terminal, this process already has the login PATH; and a CLI should not linger on stop.
    mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 },
  });
  const say = terminal(core.scrubber);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void core.stop().finally(() => process.exit(130)));
  }
  try {
    return await run(command, core, say);
  } catch (error) {
    say.err(`switchboard: ${error instanceof Error ? error.message : String(error)}`);
    if (error instanceof AppFailure && error.diagnosis) say.err(`  ${describeDiagnosis(error.diagnosis)}`);
    // The fix of a server that died starting points at its stderr: print it right after.
    const state = command.name === 'call' ? core.mcp.status(command.server)?.state : undefined;
    if (state?.kind === 'error') for (const line of state.stderrTail ?? []) say.err(`  | ${line}`);
    return 1;
  } finally {
    await core.stop();
  }
}

// `switchboard tools | head` closes stdout early; that is not an error worth a stack trace.
process.stdout.on('error', () => {});

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`switchboard: ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
