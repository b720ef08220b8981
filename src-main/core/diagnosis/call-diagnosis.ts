/** A tool call's failure, as the SDK or the transport threw it, turned into a message that names the tool and its class. */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../../src-preload/contract/tools';
import { AppFailure } from '../app-error';
import type { ServerConfig } from '../config/server-config';
import { formatDuration } from '../mcp/backoff';
import type { ServerState } from '../mcp/server-state';
import { misuse, terminal, transient, type Diagnosis } from './diagnosis';

export interface CallContext {
  server: string;
  tool: string;
  config: ServerConfig;
  /** The server's state once the call failed (a closed connection may already be reconnecting). */
  state: ServerState;
  limits: { timeout: number; hardMax: number };
  cancelledByCaller: boolean;
}

/** The SDK's error when a call that kept reporting progress ran past maxTotalTimeout. */
export function isHardMaxTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout && /maximum total timeout/i.test(error.message);
}

export const ARGUMENTS_FIX = "change the arguments to match the tool's input schema (the message says which field is wrong)";

export function callFailure(error: unknown, context: CallContext): AppFailure {
  const { server, tool, config, state, limits } = context;
  const what = `tool "${tool}" on server "${server}"`;
  if (error instanceof AppFailure) return error;
  if (context.cancelledByCaller) return new AppFailure('unavailable', `${what} was cancelled`);
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    const raise = `raise "toolTimeout" for "${server}" (now ${config.toolTimeout} s)`;
    return isHardMaxTimeout(error)
      ? new AppFailure('unavailable', `${what} ran past the hard maximum of ${formatDuration(limits.hardMax)}; cancelled`, transient(`try again with a smaller request, or ${raise}: the hard maximum is 10 times it`))
      : new AppFailure('unavailable', `${what} timed out after ${formatDuration(limits.timeout)} without progress; cancelled`, transient(`try again; if it keeps timing out, ${raise}`));
  }
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
    const after = state.kind === 'connected' ? '' : ` (${state.reason})`;
    return new AppFailure('unavailable', `server "${server}" disconnected during the call to "${tool}"${after}`, transient('Switchboard reconnects on its own: try again once the server is connected; if it keeps dropping, read its log'));
  }
  if (error instanceof McpError) {
    return new AppFailure('internal', `server "${server}" rejected the call to "${tool}": ${error.message}`, rejectionDiagnosis(error.code, server, error.message));
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppFailure('unavailable', `${what} failed: ${message}`, transient(`the request did not reach ${server} or its answer was lost; try again once it is connected`));
}

/** A connection refused, reset, timed out or a host not found: the network, not the tool, and it may pass. */
const NETWORK_FAILURE = /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EPIPE|UND_ERR_CONNECT_TIMEOUT|UND_ERR_SOCKET)\b|\bfetch failed\b|\bsocket hang up\b|\bconnection refused\b/i;

function networkDiagnosis(text: string, server: string): Diagnosis | undefined {
  const code = NETWORK_FAILURE.exec(text);
  return code ? transient(`${server} could not reach a service it needs (${code[0]}): check that the service is up and reachable, then try again`) : undefined;
}

function rejectionDiagnosis(code: number, server: string, message = ''): Diagnosis {
  const network = networkDiagnosis(message, server);
  if (network) return network;
  if (code === ErrorCode.InvalidParams) return misuse(ARGUMENTS_FIX);
  if (code === ErrorCode.MethodNotFound) return misuse(`call only tools ${server} lists (switchboard tools ${server})`);
  return terminal(`the server could not handle it; read its log (Servers → ${server} → Logs) and report it to its author if it repeats`);
}

/**
 * A result the tool itself marked as an error. The SDK's McpServer answers bad arguments and unknown
 * tools this way (text "MCP error -32602: …") instead of as a JSON-RPC error: that is misuse.
 * Any other error result is the tool's own answer, not a failure Switchboard can classify.
 */
export function diagnoseToolResult(result: ToolResult): Diagnosis | undefined {
  if (!result.isError) return undefined;
  const text = result.content.find((part) => part.type === 'text')?.text ?? '';
  if (text.startsWith(`MCP error ${ErrorCode.InvalidParams}:`)) return misuse(ARGUMENTS_FIX);
  if (text.startsWith(`MCP error ${ErrorCode.MethodNotFound}:`)) return misuse('call only tools the server lists');
  // The tool's own error may be the network's (a database or API it calls refused): that passes, it is not the author's bug.
  return networkDiagnosis(text, 'the server');
}

const TYPE_WORDS: Record<string, string> = {
  number: 'a number',
  integer: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/**
 * The validator's wording in plain words, for the person and the model alike (the CLI and the
 * window print the same message): `data/a must be number, data must have required property 'b'`
 * becomes `a: must be a number; b: is required`. Anything not recognised keeps its own words.
 */
export function plainSchemaErrors(ajvText: string): string {
  return ajvText
    .split(/, (?=data[/ ])/)
    .map((error) => {
      const match = /^data(\/\S*)? (.*)$/s.exec(error);
      if (!match) return error;
      const path = (match[1] ?? '').split('/').filter(Boolean).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
      const required = /^must have required property '(.+)'$/.exec(match[2]!);
      const field = (parts: string[]) => parts.map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : `${i ? '.' : ''}${part}`)).join('') || 'the arguments';
      if (required) return `${field([...path, required[1]!])}: is required`;
      if (!path.length && match[2] === 'must NOT have additional properties') return 'an argument the tool does not take was given';
      return `${field(path)}: ${plainRule(match[2]!)}`;
    })
    .join('; ');
}

function plainRule(rule: string): string {
  const type = /^must be (\w+)$/.exec(rule);
  if (type && TYPE_WORDS[type[1]!]) return `must be ${TYPE_WORDS[type[1]!]}`;
  const bound = /^must be (>=|<=|>|<) (.+)$/.exec(rule);
  if (bound) return `must be ${{ '>=': 'at least', '<=': 'at most', '>': 'more than', '<': 'less than' }[bound[1]!]} ${bound[2]}`;
  const length = /^must NOT have (fewer|more) than (\d+) (characters|items|properties)$/.exec(rule);
  if (length) return `must have ${length[1] === 'fewer' ? 'at least' : 'at most'} ${length[2]} ${Number(length[2]) === 1 ? length[3]!.replace(/s$/, '').replace(/ie$/, 'y') : length[3]}`;
  if (rule === 'must be equal to one of the allowed values') return 'must be one of the allowed values';
  if (rule === 'must NOT have additional properties') return 'has a field the tool does not take';
  return rule.replace(/\bNOT\b/g, 'not');
}
