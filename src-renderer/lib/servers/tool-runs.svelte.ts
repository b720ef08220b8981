import type { Api, AppError, CatalogTool, ToolResult, ToolRunUpdate } from '../../../src-preload/contract';

export type ToolRun =
  | ({ phase: 'running'; args: Record<string, unknown>; startedAt: number; runId: string } & Omit<ToolRunUpdate, 'runId'>)
  | { phase: 'done'; args: Record<string, unknown>; elapsedMs: number; result: ToolResult }
  | { phase: 'failed'; args: Record<string, unknown>; elapsedMs: number; error: AppError };

type RunApi = Pick<Api, 'runTool' | 'cancelToolRun' | 'onToolRunUpdated'>;

let runCounter = 0;

/** The last run of each tool, by its namespaced (qualified) name. */
export class ToolRuns {
  runs = $state.raw<Record<string, ToolRun>>({});
  /** Runs still waiting for main: for an approval, or for the server. */
  readonly active: number = $derived(Object.values(this.runs).filter((r) => r.phase === 'running').length);

  constructor(
    private readonly api: RunApi,
    private readonly now: () => number = Date.now,
  ) {
    // Progress and task status of a run still going: kept on the running entry it names.
    api.onToolRunUpdated(({ runId, ...update }) => {
      const entry = Object.entries(this.runs).find(([, run]) => run.phase === 'running' && run.runId === runId);
      if (!entry) return;
      const running = entry[1] as Extract<ToolRun, { phase: 'running' }>;
      // The time shown is the run's own: it starts when the call is approved, not while the approval waited.
      this.set(entry[0], { ...running, ...update, ...(update.approved && !running.approved ? { startedAt: this.now() } : {}) });
    });
  }

  async run(tool: CatalogTool, args: Record<string, unknown>): Promise<void> {
    if (this.runs[tool.qualifiedName]?.phase === 'running') return;
    const startedAt = this.now();
    const runId = `run-${startedAt}-${++runCounter}`;
    this.set(tool.qualifiedName, { phase: 'running', args, startedAt, runId });
    const result = await this.api.runTool({ server: tool.server, tool: tool.name, args, runId });
    const current = this.runs[tool.qualifiedName];
    const elapsedMs = this.now() - (current?.phase === 'running' && current.runId === runId ? current.startedAt : startedAt);
    this.set(tool.qualifiedName, result.ok ? { phase: 'done', args, elapsedMs, result: result.value } : { phase: 'failed', args, elapsedMs, error: result.error });
  }

  /** Cancels the tool's run in main (a task is cancelled on its server); the run then ends as failed, "cancelled". */
  async cancel(tool: CatalogTool): Promise<void> {
    const run = this.runs[tool.qualifiedName];
    if (run?.phase === 'running') await this.api.cancelToolRun({ runId: run.runId });
  }

  private set(name: string, run: ToolRun): void {
    this.runs = { ...this.runs, [name]: run };
  }
}
