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
    return new AppFailure('internal', `server "${server}" rejected the call to "${tool}": ${error.message}`, rejectionDiagnosis(error.code, server));
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppFailure('unavailable', `${what} failed: ${message}`, transient(`the request did not reach ${server} or its answer was lost; try again once it is connected`));
}

function rejectionDiagnosis(code: number, server: string): Diagnosis {
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
  return undefined;
}
