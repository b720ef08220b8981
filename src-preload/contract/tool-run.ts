/** Running one tool by hand from the tools panel: the invoke and the result it returns. */
import { z } from 'zod';
import { out, serverName, toolArguments } from './common';
import type { CallProgress, TaskView } from './tasks';
import type { ToolResult } from './tools';

/** Names one run from the panel, so its progress can be told and it can be cancelled (chosen by the UI). */
const runId = z.string().min(1, 'run id is empty').max(100, 'run id is over 100 characters');

/** A run's progress, or its task's status (MCP tasks), while it runs. */
export interface ToolRunUpdate {
  runId: string;
  /** Approved (by the person or a rule) and sent: the run's time counts from here, not from the click. */
  approved?: true;
  progress?: CallProgress;
  task?: TaskView;
}

/** One tool call asked for by the UI: the server, the server's own name for the tool (not the namespaced one), the arguments. */
export const toolCallInput = z
  .object({
    server: serverName,
    tool: z.string().min(1, 'tool name is empty').max(200, 'tool name is over 200 characters'),
    args: toolArguments,
  })
  .strict();

const toolRunInput = toolCallInput.extend({ runId: runId.optional() }).strict();

export const toolRunInvokes = {
  /** Runs through the one call path (origin "person"): enabled, schema, approval; a denial or a refused argument is an error. */
  runTool: { input: toolRunInput, output: out<ToolResult>() },
  /** Cancels a run while it waits for approval or runs; a task is cancelled on the server (tasks/cancel). */
  cancelToolRun: { input: z.object({ runId }).strict(), output: out<null>() },
} as const;

export const toolRunEvents = {
  toolRunUpdated: out<ToolRunUpdate>(),
} as const;
