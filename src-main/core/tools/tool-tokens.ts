/**
 * Schema tokens of a tool: what offering it to a model costs on every turn. Counted with
 * gpt-tokenizer's o200k_base (OpenAI's GPT-4o/GPT-5 encoding: exact for them); Anthropic's tokenizer
 * for current Claude models is not public, so for Claude the figure is an estimate.
 */
import type { CatalogTool } from '../../../src-preload/contract/tools';
import type { ModelTool } from './model-tool';
import { countHere, type CountTexts } from './token-worker';

export const TOKENIZER = 'o200k_base (gpt-tokenizer)';

/** A catalog tool as every provider is sent it: namespaced name, description, input schema. */
export function modelTool(tool: CatalogTool): ModelTool {
  return { name: tool.qualifiedName, description: tool.description ?? '', inputSchema: tool.inputSchema };
}

/** Tokens of the tool's definition as sent (JSON of name, description and schema), counted in this process (the bench, tests). */
export function schemaTokens(tool: ModelTool): number {
  return countHere([JSON.stringify(tool)])[0]!;
}

/** What a definition is taken to cost until it is counted: ~4 characters a token, typical of JSON schemas. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** A tool not in the counted catalog: its estimate. */
export const estimateToolTokens = (tool: CatalogTool): number => estimateTokens(JSON.stringify(modelTool(tool)));

/** Definitions handed to the counting helper at a time. */
export const COUNT_SLICE = 250;

export interface CatalogCounts {
  byTool: Map<CatalogTool, number>;
  /** False while some are estimates: their counts are on the way (onCounted fires when they are in). */
  exact: boolean;
}

/**
 * Counts a catalog's tools once, off the main thread: a rebuilt catalog (new objects, same definitions)
 * is not counted again, since counts are kept by the definition's text; texts gone from the catalog
 * are dropped. Unknown definitions are estimated at once and counted in the background, in one batch.
 */
export class ToolTokenCounter {
  private byText = new Map<string, number>();
  private countedFrom: readonly CatalogTool[] | undefined;
  private last: CatalogCounts | undefined;
  private queued = new Set<string>();
  private inFlight = new Set<string>();
  private counting: Promise<void> | undefined;

  constructor(
    private readonly countTexts: CountTexts,
    private readonly onCounted: () => void = () => {},
    /** Counting (the helper's start, the definitions handed over) waits for this: the shells' window first. */
    private readonly startAfter?: Promise<unknown>,
  ) {}

  /** Tokens of each tool of this list (the list is remembered: asking again with it is free once exact). */
  countAll(tools: readonly CatalogTool[]): CatalogCounts {
    if (tools === this.countedFrom && this.last?.exact) return this.last;
    const byText = new Map<string, number>();
    const byTool = new Map<CatalogTool, number>();
    let exact = true;
    for (const tool of tools) {
      const text = JSON.stringify(modelTool(tool));
      const known = byText.get(text) ?? this.byText.get(text);
      if (known !== undefined) byText.set(text, known);
      else {
        exact = false;
        if (!this.inFlight.has(text)) this.queued.add(text);
      }
      byTool.set(tool, known ?? estimateTokens(text));
    }
    this.byText = byText;
    this.countedFrom = tools;
    this.last = { byTool, exact };
    if (!exact) this.countQueued();
    return this.last;
  }

  /** Resolves when nothing is being counted. */
  async settled(): Promise<void> {
    while (this.counting) await this.counting;
  }

  private countQueued(): void {
    if (this.counting) return;
    this.counting = (async () => {
      // Not in the caller's task: the servers view asks first, and its snapshot (with estimates) must go
      // out before the helper is started and handed every definition (~0.1–0.2 s of this thread for 2,000 tools).
      await new Promise<void>((resolve) => setImmediate(resolve));
      await this.startAfter;
      while (this.queued.size > 0) {
        const texts = [...this.queued];
        this.queued.clear();
        this.inFlight = new Set(texts);
        // Handed over in slices: encoding 2,000 definitions for the helper at once holds this thread ~0.1 s,
        // and a browser's first questions wait behind it; between slices they are answered.
        for (let at = 0; at < texts.length; at += COUNT_SLICE) {
          const slice = texts.slice(at, at + COUNT_SLICE);
          // A failed count is done here rather than left an estimate forever (ready() waits on it).
          const counts = await this.countTexts(slice).catch(() => countHere(slice));
          slice.forEach((text, i) => this.byText.set(text, counts[i]!));
        }
      }
    })().finally(() => {
      this.inFlight.clear();
      this.counting = undefined;
      this.countedFrom = undefined;
      this.onCounted();
    });
  }
}
