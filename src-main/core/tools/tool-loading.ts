/**
 * Which tools the model is offered on a turn. Under the budget (or with loading set to "all") it
 * is every enabled tool the model may see, as before. Over it (or set to "on demand") it is the
 * pinned tools, the tools this conversation has loaded through the search tool, and the search
 * tool itself. Candidates are always the ToolCaller's model tools, so a disabled or app-only tool
 * is never offered, and every call still takes the ToolCaller's one path (enabled, visible, schema, approval).
 */
import type { ChatMessage, LoadedTool } from '../../../src-preload/contract/chat';
import type { ToolBudget, ToolBudgetView } from '../../../src-preload/contract/tool-budget';
import { DEFAULT_TOOL_BUDGET } from '../../../src-preload/contract/tool-budget';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { ToolSearchIndex } from './tool-search';
import { TokenWorker, type CountTexts } from './token-worker';
import { estimateToolTokens, TOKENIZER, ToolTokenCounter } from './tool-tokens';

export interface ToolLoadingSettings {
  budget(): ToolBudget;
  /** Always loaded: pinned by tool or by its server. */
  isPinned(server: string, tool: string): boolean;
}

/** No settings file: the default budget, nothing pinned. */
export const DEFAULT_LOADING_SETTINGS: ToolLoadingSettings = { budget: () => ({ ...DEFAULT_TOOL_BUDGET }), isPinned: () => false };

export interface LoadingPlan {
  onDemand: boolean;
  /** What the model is offered this turn, in catalog order (the search tool comes on top when on demand). */
  offered: CatalogTool[];
  /** On demand: the candidates not offered, which a search may load. */
  deferred: CatalogTool[];
}

export interface PlanInput {
  /** Enabled tools the model may see (ToolCaller.modelTools()). */
  candidates: readonly CatalogTool[];
  budget: ToolBudget;
  /** Schema tokens of all the candidates. */
  candidateTokens: number;
  isPinned: (tool: CatalogTool) => boolean;
  /** Namespaced names this conversation loaded. */
  loaded: ReadonlySet<string>;
}

export function isOnDemand(budget: ToolBudget, candidateTokens: number): boolean {
  if (budget.mode === 'all') return false;
  if (budget.mode === 'on_demand') return true;
  return candidateTokens > budget.threshold;
}

/** The loading rules, pure. */
export function planToolLoading(input: PlanInput): LoadingPlan {
  if (!isOnDemand(input.budget, input.candidateTokens)) return { onDemand: false, offered: [...input.candidates], deferred: [] };
  const offered: CatalogTool[] = [];
  const deferred: CatalogTool[] = [];
  for (const tool of input.candidates) (input.isPinned(tool) || input.loaded.has(tool.qualifiedName) ? offered : deferred).push(tool);
  return { onDemand: true, offered, deferred };
}

/** Tools the search tool loaded in this conversation, by namespaced name (kept in its results, so a reload keeps them). */
export function loadedToolNames(messages: readonly ChatMessage[]): Set<string> {
  const names = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const search of Array.isArray(message.toolSearches) ? message.toolSearches : []) {
        for (const tool of Array.isArray(search?.loaded) ? search.loaded : []) if (typeof tool?.name === 'string') names.add(tool.name);
      }
    }
    if (message.role !== 'tool') continue;
    // A hand-edited file is read defensively: only well-formed entries count.
    for (const result of message.results) {
      if (!Array.isArray(result.loaded)) continue;
      for (const tool of result.loaded) if (typeof tool?.name === 'string') names.add(tool.name);
    }
  }
  return names;
}

export function loadedTool(tool: CatalogTool): LoadedTool {
  return { name: tool.qualifiedName, server: tool.server, tool: tool.name, ...(tool.title ? { title: tool.title } : {}) };
}

interface Memo {
  from: readonly CatalogTool[];
  counts: Map<CatalogTool, number>;
  /** False while some counts are estimates. */
  exact: boolean;
  tokens: number;
  byServer: Map<string, number>;
  index?: ToolSearchIndex;
}

/** The budget, the plan and the search over one catalog; counted and indexed once per catalog. */
export class ToolLoading {
  private readonly worker: TokenWorker | undefined;
  private readonly counter: ToolTokenCounter;
  private memo: Memo | undefined;

  constructor(
    private readonly deps: {
      /** The whole catalog (disabled and app-only tools too: the tools panel shows their cost). */
      all: () => readonly CatalogTool[];
      /** Enabled tools the model may see: ToolCaller.modelTools(). */
      candidates: () => readonly CatalogTool[];
      settings: ToolLoadingSettings;
      /** Where tokens are counted: a worker thread unless given (tests, the bench). */
      countTexts?: CountTexts;
      /** Counting starts once this settles (estimates until then): ChatServiceDeps.backgroundAfter. */
      countAfter?: Promise<unknown>;
    },
  ) {
    if (!deps.countTexts) this.worker = new TokenWorker();
    this.counter = new ToolTokenCounter(
      deps.countTexts ?? this.worker!.count,
      () => {
        this.memo = undefined;
        for (const listener of this.countedListeners) listener();
      },
      deps.countAfter,
    );
  }

  private readonly countedListeners = new Set<() => void>();
  /** Counts that were estimates are in: the budget and the servers view changed. */
  onCounted(listener: () => void): void {
    this.countedListeners.add(listener);
  }

  /** A tool's tokens (an estimate until it is counted). */
  tokens(tool: CatalogTool): number {
    return this.counter.countAll(this.deps.all()).byTool.get(tool) ?? estimateToolTokens(tool);
  }

  /** Resolves when every tool of the catalog is counted: the chat plans a turn on exact figures. */
  async ready(): Promise<void> {
    while (!this.current().exact) await this.counter.settled();
  }

  /** Ends the counting worker (the core's stop). */
  close(): Promise<void> {
    return this.worker?.close() ?? Promise.resolve();
  }

  serverTokens(server: string): number {
    return this.current().byServer.get(server) ?? 0;
  }

  budgetView(): ToolBudgetView {
    const memo = this.current();
    const budget = this.deps.settings.budget();
    // Pins change without a new catalog: counted on each view (a map lookup per tool).
    let pinnedTools = 0;
    let pinnedTokens = 0;
    for (const tool of memo.from) {
      if (!this.deps.settings.isPinned(tool.server, tool.name)) continue;
      pinnedTools++;
      pinnedTokens += memo.counts.get(tool) ?? 0;
    }
    return {
      ...budget,
      enabledTokens: memo.tokens,
      enabledTools: memo.from.length,
      pinnedTools,
      pinnedTokens,
      overBudget: memo.tokens > budget.threshold,
      onDemand: isOnDemand(budget, memo.tokens),
      tokenizer: TOKENIZER,
      counting: !memo.exact,
    };
  }

  plan(loaded: ReadonlySet<string>): LoadingPlan {
    const memo = this.current();
    return planToolLoading({
      candidates: memo.from,
      budget: this.deps.settings.budget(),
      candidateTokens: memo.tokens,
      isPinned: (t) => this.deps.settings.isPinned(t.server, t.name),
      loaded,
    });
  }

  /** The best matches among the tools the model may see, leaving out pinned ones (the model has them already). */
  search(query: string, limit: number): CatalogTool[] {
    const memo = this.current();
    memo.index ??= new ToolSearchIndex(memo.from);
    return memo.index.search(query, limit, (t) => !this.deps.settings.isPinned(t.server, t.name));
  }

  private current(): Memo {
    const candidates = this.deps.candidates();
    if (this.memo?.from === candidates) return this.memo;
    const { byTool: counts, exact } = this.counter.countAll(this.deps.all());
    const byServer = new Map<string, number>();
    let tokens = 0;
    for (const tool of candidates) {
      const count = counts.get(tool) ?? estimateToolTokens(tool);
      tokens += count;
      byServer.set(tool.server, (byServer.get(tool.server) ?? 0) + count);
    }
    this.memo = { from: candidates, counts, exact, tokens, byServer };
    return this.memo;
  }
}
