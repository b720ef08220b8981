/**
 * A tool run by hand from the tools panel: the one call path with origin "person", so trying a
 * tool is never a way around what the person set up (rules, grants, "ask", SECURITY A1).
 */
import type { z } from 'zod';
import type { toolRunInvokes } from '../../../src-preload/contract/tool-run';
import { resultOrThrow, type ToolCaller } from './tool-caller';

type ToolRunInvokes = typeof toolRunInvokes;
export type ToolRunHandlers = {
  [K in keyof ToolRunInvokes]: (input: z.output<ToolRunInvokes[K]['input']>) => Promise<ToolRunInvokes[K]['output']>;
};

export function toolRunHandlers(caller: Pick<ToolCaller, 'call'>): ToolRunHandlers {
  return {
    // Nothing cancels a run from the panel yet; the person ends a wait by denying it.
    runTool: async ({ server, tool, args }) => resultOrThrow(await caller.call({ server, tool }, args, { origin: 'person' })),
  };
}
