/**
 * A tool run by hand from the tools panel: the one call path with origin "person", so trying a
 * tool is never a way around what the person set up (rules, grants, "ask", SECURITY A1).
 */
import type { z } from 'zod';
import type { ToolRunUpdate, toolRunInvokes } from '../../../src-preload/contract/tool-run';
import { AppFailure } from '../app-error';
import { CallCancel } from '../mcp/call-cancel';
import { resultOrThrow, type ToolCaller } from './tool-caller';
import type { ToolResult } from '../../../src-preload/contract/tools';

type ToolRunInvokes = typeof toolRunInvokes;
export type ToolRunHandlers = {
  [K in keyof ToolRunInvokes]: (input: z.output<ToolRunInvokes[K]['input']>) => Promise<ToolRunInvokes[K]['output']>;
};

const CANCELLED_BY_USER = 'cancelled by the user';

/** `update` tells the panel a run's progress and task status while it runs (event toolRunUpdated). */
export function toolRunHandlers(caller: Pick<ToolCaller, 'call'>, update: (update: ToolRunUpdate) => void = () => {}): ToolRunHandlers {
  const running = new Map<string, CallCancel>();
  return {
    // A run without an id cannot be cancelled or followed: it takes the short way (no state kept for it).
    runTool: ({ server, tool, args, runId }) => (runId === undefined ? caller.call({ server, tool }, args, { origin: 'person' }).then(resultOrThrow) : followedRun(server, tool, args, runId)),
    cancelToolRun: async ({ runId }) => {
      const controller = running.get(runId);
      if (!controller) throw new AppFailure('not_found', `no run "${runId}" is running`);
      controller.abort(CANCELLED_BY_USER);
      return null;
    },
  };

  async function followedRun(server: string, tool: string, args: Record<string, unknown>, runId: string): Promise<ToolResult> {
    if (running.has(runId)) throw new AppFailure('conflict', `run "${runId}" is already running`);
    const controller = new CallCancel();
    running.set(runId, controller);
    const live: Omit<ToolRunUpdate, 'runId'> = {};
    try {
      const outcome = await caller.call({ server, tool }, args, {
        origin: 'person',
        controller,
        onApproved: () => update({ runId, ...Object.assign(live, { approved: true as const }) }),
        onProgress: (progress) => update({ runId, ...Object.assign(live, { progress }) }),
        onTask: (task) => update({ runId, ...Object.assign(live, { task }) }),
      });
      return resultOrThrow(outcome);
    } finally {
      running.delete(runId);
    }
  }
}
