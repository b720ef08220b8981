/**
 * Finding tools the model has not been given yet: a full-text index (MiniSearch, BM25 with prefix
 * and fuzzy matching) over each tool's names, title, first sentence, description and arguments;
 * words are stemmed (Porter, `stemmer`) so "entity" finds "entities". A query is widened, with less
 * weight than its own words, by a synonym table, by the verbs tools use for the action it asks for
 * (search-actions.ts), by what its file names stand for, and by WordNet words some tool has; the
 * added words are looked for in names and first sentences only. A tool whose name's verb does the
 * asked action ranks higher, and copies of one tool on many servers do not crowd out the rest.
 */
import MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { synonymTable } from './search-synonyms';
import { argumentText, splitWords, summaryOf } from './tool-search-text';
import { ACTIONS, fileNameWords, requestedActions, toolActions } from './search-actions';
import { WordNet } from './wordnet';

export { splitWords } from './tool-search-text';

interface Indexed {
  id: number;
  name: string;
  title: string;
  summary: string;
  description: string;
  args: string;
}

const FIELDS = ['name', 'title', 'summary', 'description', 'args'] as const;
const EXPANSION_FIELDS = ['name', 'title', 'summary'] as const;
/** Words that say nothing about which tool is meant; left out of queries and the index alike. */
const STOP_WORDS = new Set('a an and are as at be by can do for from how i in into is it me my of on or our please that the this to use we what with you your'.split(' '));
/** How much a synonym counts against a word of the query itself. */
const SYNONYM_WEIGHT = 0.4;
const SYNONYMS = synonymTable(stemmer);
/** WordNet's words count for less than the table's: they are general English, not tool vocabulary. */
const WORDNET_SYNONYM_WEIGHT = 0.35;
const WORDNET_BROADER_WEIGHT = 0.2;
/** The verbs tools are named with for an action the request asks for ("forget" → delete, remove). */
const ACTION_VERB_WEIGHT = 0.5;
/** What a file name in the request stands for ("main.py" → file). */
const FILE_NAME_WEIGHT = 0.6;
/** A tool whose name's verb does what the request asks ranks this much higher. */
const ACTION_MATCH_BOOST = 1.5;
/** How many servers' copies of one tool rank before other tools (see fewCopiesFirst). */
const COPIES_FIRST = 2;
/** A request is a few words; a long one (find_tools takes 500 characters) looks up its first ones only (~1 ms each, cold). */
const MAX_WORDNET_WORDS = 24;
/** One reader for the process: it opens the database files on its first lookup. */
let sharedWordNet: WordNet | undefined;

const stems = new Map<string, string | null>();
/** Lower case and stemmed (remembered: a catalog repeats its words), or null for a stop word. */
function normalize(term: string): string | null {
  let stem = stems.get(term);
  if (stem === undefined) {
    const lower = term.toLowerCase();
    stem = STOP_WORDS.has(lower) ? null : stemmer(lower);
    if (stems.size >= 50_000) stems.clear();
    stems.set(term, stem);
  }
  return stem;
}

export class ToolSearchIndex {
  private readonly index: MiniSearch<Indexed>;
  /** Every normalized word the index holds: WordNet's words are added to a query only when a tool has them. */
  private readonly vocabulary = new Set<string>();
  /** Each tool's actions by its name's verb, by id. */
  private readonly actions: string[][];

  constructor(
    private readonly tools: readonly CatalogTool[],
    private readonly wordNet: () => WordNet = () => (sharedWordNet ??= new WordNet()),
  ) {
    this.index = new MiniSearch<Indexed>({
      fields: [...FIELDS],
      processTerm: (term) => {
        const normalized = normalize(term);
        if (normalized) this.vocabulary.add(normalized);
        return normalized;
      },
      searchOptions: { boost: { name: 3, title: 2, summary: 1.5, description: 1, args: 1 }, prefix: (term: string) => term.length > 3, fuzzy: 0.2, combineWith: 'OR' },
    });
    const documents = tools.map((tool, id) => ({
      id,
      name: `${splitWords(tool.name)} ${splitWords(tool.server)}`,
      title: splitWords(tool.title ?? tool.annotations?.title ?? ''),
      summary: summaryOf(tool.description ?? ''),
      description: tool.description ?? '',
      args: argumentText(tool.inputSchema),
    }));
    this.index.addAll(documents);
    this.actions = tools.map((tool) => toolActions(splitWords(tool.name).split(/\s+/)));
  }

  /** The best matches first; at most `limit`; only tools `include` accepts, when given. */
  search(query: string, limit: number, include?: (tool: CatalogTool) => boolean): CatalogTool[] {
    const { weights, actions } = this.queryTerms(query);
    const own = [...weights].filter(([, w]) => w === 1).map(([t]) => t);
    const added = [...weights].filter(([, w]) => w < 1).map(([t]) => t);
    const scores = new Map<number, { raw: number; matched: Set<string> }>();
    const run = (terms: string[], fields?: string[]) => {
      if (terms.length === 0) return;
      const hits = this.index.search(terms.join(' '), {
        // Terms are already normalized: stemming twice would change them.
        processTerm: (t) => t,
        boostTerm: (term) => weights.get(term) ?? 0,
        ...(fields ? { fields } : {}),
        ...(include ? { filter: (hit) => include(this.tools[hit.id as number]!) } : {}),
      });
      for (const hit of hits) {
        const entry = scores.get(hit.id as number) ?? { raw: 0, matched: new Set<string>() };
        // MiniSearch multiplies by the number of query terms matched; undone here and redone with weights.
        entry.raw += hit.score / hit.queryTerms.length;
        for (const term of hit.queryTerms) entry.matched.add(term);
        scores.set(hit.id as number, entry);
      }
    };
    run(own);
    // Added words say what a tool is, not every word of its manual: they are looked for in its names and first sentence.
    run(added, [...EXPANSION_FIELDS]);
    const ranked = [...scores]
      .map(([id, { raw, matched }]) => {
        const coverage = [...matched].reduce((sum, term) => sum + (weights.get(term) ?? 0), 0);
        const doesIt = this.actions[id]!.some((a) => actions.includes(a));
        return { id, score: raw * coverage * (doesIt ? ACTION_MATCH_BOOST : 1) };
      })
      .sort((a, b) => b.score - a.score);
    return fewCopiesFirst(ranked.map(({ id }) => this.tools[id]!)).slice(0, limit);
  }

  /**
   * The query's own words (weight 1), widened (with less weight) by the synonym table, the verbs of
   * the actions it asks for, what its file names stand for, and WordNet; and those actions.
   */
  queryTerms(query: string): { weights: Map<string, number>; actions: string[] } {
    const all = tokenize(splitWords(query));
    const words = all.filter((w) => normalize(w));
    const weights = new Map<string, number>();
    const add = (term: string | null, weight: number) => {
      if (term && weight > (weights.get(term) ?? 0)) weights.set(term, weight);
    };
    for (const word of words) add(normalize(word), 1);
    for (const term of [...weights.keys()]) for (const synonym of SYNONYMS.get(term) ?? []) add(synonym, SYNONYM_WEIGHT);
    const actions = requestedActions(query, all);
    for (const action of actions) for (const verb of ACTIONS[action]!.toolVerbs) add(normalize(verb), ACTION_VERB_WEIGHT);
    for (const word of fileNameWords(query.split(/\s+/))) add(normalize(word), FILE_NAME_WEIGHT);
    const wordNet = this.wordNet();
    for (const word of [...new Set(words.map((w) => w.toLowerCase()))].slice(0, MAX_WORDNET_WORDS)) {
      const related = wordNet.related(word);
      const known = (w: string) => {
        const term = normalize(w);
        return term && this.vocabulary.has(term) ? term : null;
      };
      for (const w of related.synonyms) add(known(w), WORDNET_SYNONYM_WEIGHT);
      for (const w of related.broader) add(known(w), WORDNET_BROADER_WEIGHT);
    }
    return { weights, actions };
  }
}

/**
 * The same tool served by many servers (one filesystem server per project) would fill the results
 * with copies of one guess: past COPIES_FIRST hits of one tool name, the rest wait behind every other hit.
 */
export function fewCopiesFirst(ranked: readonly CatalogTool[]): CatalogTool[] {
  const seen = new Map<string, number>();
  const first: CatalogTool[] = [];
  const later: CatalogTool[] = [];
  for (const tool of ranked) {
    const copies = seen.get(tool.name) ?? 0;
    seen.set(tool.name, copies + 1);
    (copies < COPIES_FIRST ? first : later).push(tool);
  }
  return [...first, ...later];
}

const tokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];
