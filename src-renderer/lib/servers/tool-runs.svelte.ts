import type { Api, AppError, ToolRunResult, ToolView } from '../../../src-preload/contract';

export type ToolRun =
  | { phase: 'running'; args: Record<string, unknown>; startedAt: number }
  | { phase: 'done'; args: Record<string, unknown>; elapsedMs: number; result: ToolRunResult }
  | { phase: 'failed'; args: Record<string, unknown>; elapsedMs: number; error: AppError };

type RunApi = Pick<Api, 'runTool'>;

/** The last run of each tool, by namespaced name. */
export class ToolRuns {
  runs = $state.raw<Record<string, ToolRun>>({});
  /** Runs still waiting for main: for an approval, or for the server. */
  readonly active: number = $derived(Object.values(this.runs).filter((r) => r.phase === 'running').length);

  constructor(
    private readonly api: RunApi,
    private readonly now: () => number = Date.now,
  ) {}

  async run(tool: ToolView, args: Record<string, unknown>): Promise<void> {
    if (this.runs[tool.name]?.phase === 'running') return;
    const startedAt = this.now();
    this.set(tool.name, { phase: 'running', args, startedAt });
    const result = await this.api.runTool({ server: tool.server, tool: tool.tool, args });
    const elapsedMs = this.now() - startedAt;
    this.set(tool.name, result.ok ? { phase: 'done', args, elapsedMs, result: result.value } : { phase: 'failed', args, elapsedMs, error: result.error });
  }

  private set(name: string, run: ToolRun): void {
    this.runs = { ...this.runs, [name]: run };
  }
}
