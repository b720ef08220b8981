/**
 * Schema tokens of a tool: what offering it to a model costs on every turn. Counted with
 * gpt-tokenizer's o200k_base (OpenAI's GPT-4o/GPT-5 encoding: exact for them); Anthropic's tokenizer
 * for current Claude models is not public, so for Claude the figure is an estimate.
 */
import { createRequire } from 'node:module';
import type * as O200k from 'gpt-tokenizer/encoding/o200k_base';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import type { ModelTool } from '../chat/providers/chat-provider';

export const TOKENIZER = 'o200k_base (gpt-tokenizer)';

let encoder: ((text: string) => number) | undefined;
/**
 * Loaded on the first count, not at start: its 200K-entry vocabulary takes ~45 MB of the main
 * process, which a process that never shows tools (the CLI's status, a catalog with no tools) never pays.
 */
function countTokens(text: string): number {
  encoder ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as typeof O200k).countTokens;
  return encoder(text);
}

/** A catalog tool as every provider is sent it: namespaced name, description, input schema. */
export function modelTool(tool: CatalogTool): ModelTool {
  return { name: tool.qualifiedName, description: tool.description ?? '', inputSchema: tool.inputSchema };
}

/** Tokens of the tool's definition as sent (JSON of name, description and schema). */
export function schemaTokens(tool: ModelTool): number {
  return countTokens(JSON.stringify(tool));
}

/**
 * Counts a catalog's tools once: a rebuilt catalog (new objects, same definitions) is not counted
 * again, since counts are kept by the definition's text; texts gone from the catalog are dropped.
 */
export class ToolTokenCounter {
  private byText = new Map<string, number>();
  private countedFrom: readonly CatalogTool[] | undefined;
  private byTool = new Map<CatalogTool, number>();

  /** Tokens of each tool of this list (the list is remembered: asking again with it is free). */
  countAll(tools: readonly CatalogTool[]): Map<CatalogTool, number> {
    if (tools === this.countedFrom) return this.byTool;
    const byText = new Map<string, number>();
    const byTool = new Map<CatalogTool, number>();
    for (const tool of tools) {
      const text = JSON.stringify(modelTool(tool));
      const count = byText.get(text) ?? this.byText.get(text) ?? countTokens(text);
      byText.set(text, count);
      byTool.set(tool, count);
    }
    this.byText = byText;
    this.byTool = byTool;
    this.countedFrom = tools;
    return byTool;
  }

  /** One tool's tokens; from the last counted list when it is there. */
  count(tool: CatalogTool): number {
    return this.byTool.get(tool) ?? schemaTokens(modelTool(tool));
  }
}
