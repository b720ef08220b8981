/** Call traces for the UI: one chat call's timeline (the tool card's "Trace") and a server's recent calls (its Logs). */
import type { z } from 'zod';
import type { traceInvokes } from '../../../src-preload/contract/traces';
import type { McpManager } from '../mcp/mcp-manager';
import type { CallTraces } from './call-traces';

type TraceInvokes = typeof traceInvokes;
type TraceHandlers = { [K in keyof TraceInvokes]: (input: z.output<TraceInvokes[K]['input']>) => Promise<TraceInvokes[K]['output']> };

export function traceHandlers(traces: Pick<CallTraces, 'forCall' | 'forServer'>, mcp: Pick<McpManager, 'logs'>): TraceHandlers {
  return {
    callTrace: async ({ conversationId, callId }) => traces.forCall(conversationId, callId) ?? null,
    serverCallTraces: async ({ name }) => {
      mcp.logs(name); // a server that does not exist is the same exact error as its Logs give
      return traces.forServer(name);
    },
  };
}
