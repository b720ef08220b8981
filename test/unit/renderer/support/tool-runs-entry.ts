import type { CatalogTool, Result, ToolRunUpdate } from '../../../../src-preload/contract';
import { ToolRuns } from '../../../../src-renderer/lib/servers/tool-runs.svelte';

/** A clock the test moves, a runTool the test answers, and the run's updates raised by the test. */
let clock = 1000;
let answer: ((result: Result<unknown>) => void) | undefined;
let updated: ((update: ToolRunUpdate) => void) | undefined;
const runs = new ToolRuns(
  {
    runTool: () => new Promise((done) => (answer = done as typeof answer)),
    cancelToolRun: async () => ({ ok: true, value: null }),
    onToolRunUpdated: (listener) => {
      updated = listener;
      return () => {};
    },
  },
  () => clock,
);
const tool = { server: 'box', name: 'echo', qualifiedName: 'box__echo' } as CatalogTool;

Object.assign(window, {
  start: () => void runs.run(tool, {}),
  advance: (ms: number) => (clock += ms),
  approve: () => {
    const run = runs.runs.box__echo;
    if (run?.phase === 'running') updated?.({ runId: run.runId, approved: true });
  },
  finish: () => answer?.({ ok: true, value: { content: [], truncatedChars: 0 } }),
  runState: () => runs.runs.box__echo,
});
