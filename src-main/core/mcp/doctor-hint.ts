import { referencesIn } from '../config/expand';
import type { RemoteServerConfig, ServerConfig } from '../config/server-config';
import type { ServerState } from './server-state';

/**
 * How to fix a server that is not connected, in one or two sentences, for the CLI doctor and
 * the servers view. Undefined when there is nothing to fix.
 */
export function doctorHint(config: ServerConfig, state: ServerState): string | undefined {
  const reason = state.reason;
  switch (state.kind) {
    case 'connected':
    case 'connecting':
      return undefined;
    case 'disabled':
      return reason.startsWith('MCP is switched off')
        ? 'set "disabled": false at the top of servers.json (or switch MCP on in the app)'
        : `enable it in the app, or set "enabled": true for "${config.name}" in ${config.source.path}`;
    case 'trust_required':
      return 'open Switchboard and approve the command (Servers → Approve) if you trust this project';
    case 'needs_auth':
      return `sign in: Servers → Sign in in Switchboard, or run: switchboard login ${config.name}`;
    case 'backing_off':
      return config.kind === 'stdio'
        ? 'it dropped and Switchboard is reconnecting on its own; if this repeats, read its log (Servers → the server → Log)'
        : `it dropped and Switchboard is reconnecting on its own; if this repeats, check that ${config.url} is up`;
    case 'error':
      return errorHint(config, reason);
  }
}

function errorHint(config: ServerConfig, reason: string): string {
  if (reason.startsWith('command not found')) {
    const command = config.kind === 'stdio' ? config.command : 'the command';
    return `install ${command} (for npx: install Node.js), or put its full path in "command"; Switchboard searches your login shell's PATH`;
  }
  if (reason.startsWith('command is not executable')) return 'make the file executable (chmod +x) or run it through its interpreter';
  if (reason.startsWith('timed out')) {
    return `it did not finish initialize in ${config.timeout} s: run it by hand to see whether it starts (first runs of npx download packages), or raise "timeout" for "${config.name}"`;
  }
  if (/^(exited with code|killed by)/.test(reason)) return 'it crashed while starting; its last stderr lines are below — often a missing env variable or argument';
  if (reason.startsWith('crashed ')) return 'it keeps crashing soon after start; read its log, fix the cause, then reconnect';
  if (reason.startsWith('stdout line over')) return 'the server wrote a huge line to stdout; servers must log to stderr — report it to its author';
  if (/^secret .* is not set/.test(reason)) return 'store the secret in Switchboard (Settings → Secrets); it lives in the OS keychain';
  if (reason.startsWith('refusing plain http')) return 'use the https:// address of the server';
  if (reason.startsWith('connection refused')) return 'nothing answers at that address: is the server running, and is the port right?';
  if (reason.startsWith('host not found')) return 'check the host name in "url" and your network';
  if (reason.startsWith('HTTP 403')) return 'the server refused these credentials; sign in again with an account that has access';
  if (reason.startsWith('HTTP 404')) return 'nothing speaks MCP at that URL: check the path (often /mcp or /sse) or set "transport"';
  if (reason.startsWith('the OS keychain is not available')) {
    return 'start a Secret Service (gnome-keyring or KWallet) and unlock it, then reconnect: sign-in tokens are kept only in the OS keychain, never in a file';
  }
  if (reason.startsWith('HTTP 401: ') && config.kind === 'remote') return credentialsHint(config, reason);
  // Nothing more specific is known: the next step that shows the cause.
  return config.kind === 'stdio'
    ? `run it by hand to see what it says: ${[config.command, ...config.args].join(' ')}`
    : `check that ${config.url} is up and serves MCP at that path (open it with curl), then reconnect`;
}

/** A 401 from a server without OAuth: which header to add, or where the refused one's value comes from. */
function credentialsHint(config: RemoteServerConfig, reason: string): string {
  const headers = Object.entries(config.headers);
  if (headers.length === 0) {
    const scheme = /\(WWW-Authenticate: (\S+)\)/.exec(reason)?.[1] ?? 'Bearer';
    return `it wants an API key: add the header it expects under "headers" for "${config.name}" in ${config.source.path}, e.g. "Authorization": "${scheme} \${secret:${config.name}-api-key}", and store the key in Settings → Secrets`;
  }
  const named = headers.map(([header]) => `"${header}"`).join(', ');
  const refs = headers.map(([, value]) => referencesIn(value));
  const sources = [
    ...refs.flatMap((r) => r.secrets).map((name) => `the secret ${name} (Settings → Secrets)`),
    ...refs.flatMap((r) => r.commands).map((command) => `what the command ${command} prints`),
    ...refs.flatMap((r) => r.variables).map((name) => `the environment variable ${name}`),
  ];
  const header = headers.length === 1 ? 'header' : 'headers';
  return sources.length
    ? `it refused the ${named} ${header}: check ${sources.join(' and ')} it is built from`
    : `it refused the ${named} ${header} written in ${config.source.path}: check the value`;
}
