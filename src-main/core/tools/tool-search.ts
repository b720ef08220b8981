/**
 * Finding tools the model has not been given yet: a full-text index (MiniSearch, BM25 with prefix
 * and fuzzy matching) over each tool's names, title, description and argument names; words are
 * stemmed (Porter, `stemmer`) so "entity" finds "entities", and queries widened with synonyms.
 */
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { synonymTable } from './search-synonyms';

interface Indexed {
  id: number;
  name: string;
  title: string;
  description: string;
  args: string;
}

const FIELDS = ['name', 'title', 'description', 'args'] as const;
/** Words that say nothing about which tool is meant; left out of queries and the index alike. */
const STOP_WORDS = new Set('a an and are as at be by can do for from how i in into is it me my of on or our please that the this to use we what with you your'.split(' '));
/** How much a synonym counts against a word of the query itself. */
const SYNONYM_WEIGHT = 0.4;
const SYNONYMS = synonymTable(stemmer);

function normalize(term: string): string | null {
  const lower = term.toLowerCase();
  return STOP_WORDS.has(lower) ? null : stemmer(lower);
}

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
      processTerm: normalize,
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
    const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
    const asked = tokenize(splitWords(query))
      .map(normalize)
      .filter((t): t is string => !!t);
    const added = [...new Set(asked.flatMap((t) => [...(SYNONYMS.get(t) ?? [])]))].filter((t) => !asked.includes(t));
    const own = new Set(asked);
    return this.index
      .search([...asked, ...added].join(' '), {
        // Terms are already normalized: stemming twice would change them.
        processTerm: (t) => t,
        boostTerm: (term) => (own.has(term) ? 1 : SYNONYM_WEIGHT),
        ...(include ? { filter: (hit) => include(this.tools[hit.id as number]!) } : {}),
      })
      .slice(0, limit)
      .map((hit) => this.tools[hit.id as number]!);
  }
}
