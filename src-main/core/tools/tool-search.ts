/**
 * Finding tools the model has not been given yet: a full-text index (MiniSearch, BM25 with prefix
 * and fuzzy matching) over each tool's names, title, description and argument names.
 */
import MiniSearch from 'minisearch';
import type { CatalogTool } from '../../../src-preload/contract/tools';

interface Indexed {
  id: number;
  name: string;
  title: string;
  description: string;
  args: string;
}

const FIELDS = ['name', 'title', 'description', 'args'] as const;
/** Words that say nothing about which tool is meant; left out of queries and the index alike. */
const STOP_WORDS = new Set('a an and are as at be by can do for from how i in into is it me my of on or our please show that the this to use we what with you your'.split(' '));

/** "getSumOfNumbers" and "get-sum_of" both become "get sum of". */
export function splitWords(text: string): string {
  return text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-./:]+/g, ' ');
}

function argumentText(schema: CatalogTool['inputSchema']): string {
  const properties = schema.properties && typeof schema.properties === 'object' ? (schema.properties as Record<string, unknown>) : {};
  return Object.entries(properties)
    .map(([name, prop]) => {
      const description = prop && typeof prop === 'object' && typeof (prop as { description?: unknown }).description === 'string' ? (prop as { description: string }).description : '';
      return `${splitWords(name)} ${description}`;
    })
    .join(' ');
}

export class ToolSearchIndex {
  private readonly index: MiniSearch<Indexed>;

  constructor(private readonly tools: readonly CatalogTool[]) {
    this.index = new MiniSearch<Indexed>({
      fields: [...FIELDS],
      processTerm: (term) => {
        const lower = term.toLowerCase();
        return STOP_WORDS.has(lower) ? null : lower;
      },
      searchOptions: { boost: { name: 3, title: 2, description: 1, args: 1 }, prefix: true, fuzzy: 0.2, combineWith: 'OR' },
    });
    this.index.addAll(
      tools.map((tool, id) => ({
        id,
        name: `${splitWords(tool.name)} ${splitWords(tool.server)}`,
        title: splitWords(tool.title ?? tool.annotations?.title ?? ''),
        description: tool.description ?? '',
        args: argumentText(tool.inputSchema),
      })),
    );
  }

  /** The best matches first; at most `limit`; only tools `include` accepts, when given. */
  search(query: string, limit: number, include?: (tool: CatalogTool) => boolean): CatalogTool[] {
    return this.index
      .search(splitWords(query), include ? { filter: (hit) => include(this.tools[hit.id as number]!) } : {})
      .slice(0, limit)
      .map((hit) => this.tools[hit.id as number]!);
  }
}
