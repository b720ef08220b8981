import type { Api, AppError, CatalogTool, ToolResult } from '../../../src-preload/contract';

export type ToolRun =
  | { phase: 'running'; args: Record<string, unknown>; startedAt: number }
  | { phase: 'done'; args: Record<string, unknown>; elapsedMs: number; result: ToolResult }
  | { phase: 'failed'; args: Record<string, unknown>; elapsedMs: number; error: AppError };

type RunApi = Pick<Api, 'runTool'>;

/** The last run of each tool, by its namespaced (qualified) name. */
export class ToolRuns {
  runs = $state.raw<Record<string, ToolRun>>({});
  /** Runs still waiting for main: for an approval, or for the server. */
  readonly active: number = $derived(Object.values(this.runs).filter((r) => r.phase === 'running').length);

  constructor(
    private readonly api: RunApi,
    private readonly now: () => number = Date.now,
  ) {}

  async run(tool: CatalogTool, args: Record<string, unknown>): Promise<void> {
    if (this.runs[tool.qualifiedName]?.phase === 'running') return;
    const startedAt = this.now();
    this.set(tool.qualifiedName, { phase: 'running', args, startedAt });
    const result = await this.api.runTool({ server: tool.server, tool: tool.name, args });
    const elapsedMs = this.now() - startedAt;
    this.set(tool.qualifiedName, result.ok ? { phase: 'done', args, elapsedMs, result: result.value } : { phase: 'failed', args, elapsedMs, error: result.error });
  }

  private set(name: string, run: ToolRun): void {
    this.runs = { ...this.runs, [name]: run };
  }
}
