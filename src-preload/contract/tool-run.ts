/** Running one tool by hand from the tools panel: the invoke and the result it returns. */
import { z } from 'zod';
import { out, serverName } from './common';
import type { ToolResult } from './tools';

export const toolRunInvokes = {
  /** Runs through the one call path (origin "person"): enabled, schema, approval; a denial or a refused argument is an error. */
  runTool: {
    input: z
      .object({
        server: serverName,
        /** The server's own name for the tool, not the namespaced one. */
        tool: z.string().min(1, 'tool name is empty').max(200, 'tool name is over 200 characters'),
        args: z.record(z.string(), z.unknown()),
      })
      .strict(),
    output: out<ToolResult>(),
  },
} as const;
