import type { ServerConfig } from '../config/server-config';
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
      return 'sign in from Switchboard (Servers → Sign in); the CLI cannot open the browser flow';
    case 'backing_off':
      return 'it dropped and Switchboard is reconnecting on its own; see its log if this repeats';
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
  return 'see the log below; fix the config and reconnect';
}
