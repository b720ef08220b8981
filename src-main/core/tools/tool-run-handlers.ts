/**
 * A tool run by hand from the tools panel. It takes the chat's path on purpose: the same catalog
 * entry, the same approval broker (rules, grants, "ask"), and main's own copy of the arguments
 * (SECURITY A1), so trying a tool is never a way around what the person set up.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation/types.js';
import type { z } from 'zod';
import type { toolRunInvokes } from '../../../src-preload/contract/tool-run';
import { AppFailure } from '../app-error';
import type { ApprovalBroker, ToolCallVerdict } from '../approvals/approval-broker';
import { managerToolRuntime } from '../chat/manager-tool-runtime';
import type { McpManager } from '../mcp/mcp-manager';
import type { CatalogTool } from '../mcp/tool-catalog';

type ToolRunInvokes = typeof toolRunInvokes;
export type ToolRunHandlers = {
  [K in keyof ToolRunInvokes]: (input: z.output<ToolRunInvokes[K]['input']>) => Promise<ToolRunInvokes[K]['output']>;
};

export interface ToolRunDeps {
  mcp: Pick<McpManager, 'tools' | 'serverTool' | 'callTool' | 'status'>;
  broker: Pick<ApprovalBroker, 'requestToolCall'>;
}

/** Nothing cancels a run from the panel yet; the person ends a wait by denying it. */
const NEVER_CANCELLED = new AbortController().signal;

export function toolRunHandlers(deps: ToolRunDeps): ToolRunHandlers {
  const runtime = managerToolRuntime(deps.mcp);
  const validator = new AjvJsonSchemaValidator();

  return {
    runTool: async ({ server, tool: own, args }) => {
      const entry = findTool(deps.mcp, server, own);
      const what = `tool "${own}" on server "${server}"`;
      if (!entry.enabled) throw new AppFailure('conflict', `${what} is disabled; turn it on in the tools list to run it`);
      checkArgs(validator, entry, args, what);
      // The chat's view of the catalog: what the broker fingerprints and what "always allow the server" vouches for.
      const catalog = runtime.listTools();
      const tool = runtime.findTool(entry.name);
      if (!tool) throw new AppFailure('conflict', `${what} left the catalog before it could run`);
      const verdict = await deps.broker.requestToolCall({ tool, args, catalog, signal: NEVER_CANCELLED });
      if (verdict.kind !== 'run') throw refusal(verdict, what);
      return deps.mcp.callTool(entry.name, verdict.args);
    },
  };
}

/** The catalog entry by the server's own tool name; a server that is down says so rather than "no tool". */
function findTool(mcp: ToolRunDeps['mcp'], server: string, own: string): CatalogTool {
  const found = mcp.serverTool(server, own);
  if (found) return found;
  mcp.tools(server); // throws the exact "no server named" failure for an unknown server
  const state = mcp.status(server)?.state;
  if (state && state.kind !== 'connected') throw new AppFailure('unavailable', `server "${server}" is not connected (${state.kind}: ${state.reason})`);
  throw new AppFailure('not_found', `server "${server}" has no tool "${own}"`);
}

function checkArgs(validator: AjvJsonSchemaValidator, tool: CatalogTool, args: Record<string, unknown>, what: string): void {
  let check: ReturnType<ReturnType<AjvJsonSchemaValidator['getValidator']>>;
  try {
    check = validator.getValidator(tool.inputSchema as JsonSchemaType)(args);
  } catch (error) {
    throw new AppFailure('conflict', `the input schema of ${what} cannot be checked: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!check.valid) throw new AppFailure('invalid_input', `arguments for ${what} do not match its input schema: ${check.errorMessage}`);
}

function refusal(verdict: Exclude<ToolCallVerdict, { kind: 'run' }>, what: string): AppFailure {
  switch (verdict.kind) {
    case 'deny':
      if (verdict.by === 'user') return new AppFailure('conflict', `you denied running ${what}${verdict.reason ? `: ${verdict.reason}` : ''}`);
      return new AppFailure('conflict', `${what} was refused by ${verdict.because}`);
    case 'cancelled':
      return new AppFailure('unavailable', `the run of ${what} was cancelled before it started`);
    default:
      return verdict satisfies never;
  }
}
