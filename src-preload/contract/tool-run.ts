/** Running one tool by hand from the tools panel: the invoke and the result it returns. */
import { z } from 'zod';
import { out, serverName } from './common';
import type { ToolResult } from './tools';

/** One tool call asked for by the UI: the server, the server's own name for the tool (not the namespaced one), the arguments. */
export const toolCallInput = z
  .object({
    server: serverName,
    tool: z.string().min(1, 'tool name is empty').max(200, 'tool name is over 200 characters'),
    args: z.record(z.string(), z.unknown()),
  })
  .strict();

export const toolRunInvokes = {
  /** Runs through the one call path (origin "person"): enabled, schema, approval; a denial or a refused argument is an error. */
  runTool: { input: toolCallInput, output: out<ToolResult>() },
} as const;
