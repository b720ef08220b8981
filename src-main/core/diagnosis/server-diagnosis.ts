import { referencesIn } from '../config/expand';
import type { RemoteServerConfig, ServerConfig } from '../config/server-config';
import type { ServerState } from '../mcp/server-state';
import { SET_BY_ORGANIZATION } from '../policy/policy-rules';
import { terminal, transient, type Diagnosis } from './diagnosis';

/**
 * Why a server is not connected, as a class and one or two sentences to fix it, for the servers
 * view, the CLI and a tool call that met the server down. Undefined when nothing failed (connected,
 * starting, or switched off on purpose: `serverFix` still says how to switch it on).
 */
export function diagnoseServer(config: ServerConfig, state: ServerState): Diagnosis | undefined {
  switch (state.kind) {
    case 'connected':
    case 'connecting':
    case 'disabled':
      return undefined;
    case 'trust_required':
      return terminal(
        config.source.origin === 'bundle'
          ? `approve what it runs: Approve and run on its row in Switchboard's Servers page, or run: switchboard approve ${config.name}`
          : `if you trust this project, approve it: Approve and run on its row in Switchboard's Servers page, or run: switchboard approve ${config.name}`,
      );
    case 'needs_auth':
      return terminal(`sign in: Servers → Sign in in Switchboard, or run: switchboard login ${config.name}`);
    case 'backing_off':
      return transient(
        config.kind === 'stdio'
          ? "it dropped and Switchboard is reconnecting on its own; if this repeats, read its log (Logs on its row in Switchboard's Servers page)"
          : `it dropped and Switchboard is reconnecting on its own; if this repeats, check that ${config.url} is up`,
      );
    case 'error':
      return errorDiagnosis(config, state.reason, state.stderrTail);
  }
}

/** How to fix a server that is not connected, or how to switch on a disabled one: the CLI's "fix:" line. */
export function serverFix(config: ServerConfig, state: ServerState): string | undefined {
  if (state.kind !== 'disabled') return diagnoseServer(config, state)?.fix;
  return state.reason.startsWith('MCP is switched off')
    ? 'set "disabled": false at the top of servers.json (or switch MCP on in the app)'
    : `enable it in the app, or set "enabled": true for "${config.name}" in ${config.source.path}`;
}

function errorDiagnosis(config: ServerConfig, reason: string, stderrTail: string[] = []): Diagnosis {
  // The administrator's policy refused it (SECURITY X2): running it by hand shows nothing; only the administrator can change it.
  if (reason.startsWith('refused: ') && reason.includes(SET_BY_ORGANIZATION)) {
    return terminal(
      reason.startsWith(`refused: the policy ${SET_BY_ORGANIZATION} is broken`)
        ? 'ask your administrator to fix the policy file; until then it refuses every server. Reconnect once it is fixed'
        : 'your organization decides which servers may run: ask your administrator, or remove this server',
    );
  }
  if (reason.startsWith('command not found') && reason.includes('is a whole command line')) {
    return terminal(`split it: the program in "command", each argument an item of "args", for "${config.name}" in ${config.source.path} — or Edit it in Switchboard, whose Command field splits a pasted line`);
  }
  if (reason.startsWith('command not found')) {
    const command = config.kind === 'stdio' ? config.command : 'the command';
    // "npxx", "nxp", "uvxx": a slip of the keyboard, not a program to install.
    const meant = REAL_NAMES.has(command) ? undefined : RUNNERS.find((runner) => oneEditApart(runner, command));
    if (meant) return terminal(`check the spelling: did you mean ${meant}? Change "command" for "${config.name}" in ${config.source.path}, or Edit it in Switchboard`);
    return terminal(`install ${command} (for npx: install Node.js), or put its full path in "command"; Switchboard searches your login shell's PATH`);
  }
  if (reason.startsWith('command is not executable')) return terminal('make the file executable (chmod +x) or run it through its interpreter');
  if (reason.startsWith('cannot start the server')) return terminal(`check "command" and "cwd" for "${config.name}": the file or folder is missing or not allowed`);
  if (reason.startsWith('timed out')) {
    return transient(`it did not finish initialize in ${config.timeout} s: run it by hand to see whether it starts (first runs of npx download packages), or raise "timeout" for "${config.name}"`);
  }
  if (reason.startsWith('exited with code 0 ')) {
    // Not a crash: the program did what it does and ended (a one-off CLI run, a server that needs a "serve" or "stdio" argument).
    const what = 'it quit at once, reporting success (exit code 0): the command may not start an MCP server, or needs an argument to serve';
    return terminal(stderrTail.length ? `${what}; its last stderr lines are below` : `${what}; run it by hand to see what it does: ${handRun(config)}`);
  }
  if (/^(exited with code|killed by)/.test(reason)) {
    // Promise lines below only when there are some (the state carries them: ServerState stderrTail).
    return terminal(
      stderrTail.length
        ? 'it crashed while starting; its last stderr lines are below — often a missing env variable or argument'
        : `it crashed while starting without a word on stderr; run it by hand to see what it says: ${handRun(config)}`,
    );
  }
  if (reason.startsWith('crashed ')) return terminal('it keeps crashing soon after start; read its log, fix the cause, then reconnect');
  if (reason.startsWith('stdout line over')) return terminal('the server wrote a huge line to stdout; servers must log to stderr — report it to its author');
  if (/^secret .* is not set/.test(reason)) return terminal('store the secret on the Secrets page (it lives in the OS keychain), then reconnect');
  // The keychain, not the server, is at fault: its URL or command would send the person the wrong way.
  if (/^secret .* could not be read from the OS keychain/.test(reason)) {
    return terminal('start a Secret Service (gnome-keyring or KWallet) and unlock it, then reconnect: the secret is read from the OS keychain when the server starts, never from a file');
  }
  if (reason.startsWith('refusing plain http')) return terminal('use the https:// address of the server');
  if (reason.startsWith('connection refused')) return transient('nothing answers at that address: is the server running, and is the port right? Reconnect once it is up');
  if (reason.startsWith('host not found')) return transient('check the host name in "url" and your network, then reconnect');
  if (reason.startsWith('HTTP 403')) return terminal('the server refused these credentials; sign in again with an account that has access');
  if (reason.startsWith('HTTP 404')) return terminal('nothing speaks MCP at that URL: check the path (often /mcp or /sse) or set "transport"');
  if (/^HTTP 5\d\d /.test(reason)) return transient(`the server failed on its side; reconnect in a moment, and if it persists check that ${config.kind === 'remote' ? config.url : 'it'} is healthy`);
  if (reason.startsWith('the OS keychain is not available')) {
    return terminal('start a Secret Service (gnome-keyring or KWallet) and unlock it, then reconnect: sign-in tokens are kept only in the OS keychain, never in a file');
  }
  if (reason.startsWith('HTTP 401: ') && config.kind === 'remote') return terminal(credentialsHint(config, reason));
  // Nothing more specific is known: the next step that shows the cause.
  return terminal(
    config.kind === 'stdio'
      ? `run it by hand to see what it says: ${handRun(config)}`
      : `check that ${config.url} is up and serves MCP at that path (open it with curl), then reconnect`,
  );
}

/** The programs server entries usually start with: a near miss of one is a typo. */
const RUNNERS = ['npx', 'uvx', 'node', 'python', 'python3', 'docker', 'bunx', 'deno', 'pipx'];
/** Programs of their own one letter from a runner: missing, they need installing, not respelling. */
const REAL_NAMES = new Set(['npm', 'uv', 'bun', 'pip', 'pip3', 'python2', 'nodejs']);

/** One letter added, dropped, changed or two swapped. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  const swapped = a.length === b.length && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  return swapped || a.slice(i + 1) === b.slice(i + 1) || a.slice(i) === b.slice(i + 1) || a.slice(i + 1) === b.slice(i);
}

/** What to type to run the server by hand. */
const handRun = (config: ServerConfig): string => (config.kind === 'stdio' ? [config.command, ...config.args].join(' ') : config.url);

/** A 401 from a server without OAuth: which header to add, or where the refused one's value comes from. */
function credentialsHint(config: RemoteServerConfig, reason: string): string {
  const headers = Object.entries(config.headers);
  if (headers.length === 0) {
    const scheme = /\(WWW-Authenticate: (\S+)\)/.exec(reason)?.[1] ?? 'Bearer';
    return `it wants an API key: add the header it expects under "headers" for "${config.name}" in ${config.source.path}, e.g. "Authorization": "${scheme} \${secret:${config.name}-api-key}", and store the key on the Secrets page`;
  }
  const named = headers.map(([header]) => `"${header}"`).join(', ');
  const refs = headers.map(([, value]) => referencesIn(value));
  const sources = [
    ...refs.flatMap((r) => r.secrets).map((name) => `the secret ${name} (on the Secrets page)`),
    ...refs.flatMap((r) => r.commands).map((command) => `what the command ${command} prints`),
    ...refs.flatMap((r) => r.variables).map((name) => `the environment variable ${name}`),
  ];
  const header = headers.length === 1 ? 'header' : 'headers';
  return sources.length
    ? `it refused the ${named} ${header}: check ${sources.join(' and ')} it is built from`
    : `it refused the ${named} ${header} written in ${config.source.path}: check the value`;
}
