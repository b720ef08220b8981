import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { CatalogTool } from '../../src-preload/contract/tools';
import { judge, type Figure } from '../lib/figure';
import { buildCatalog, FIND_TOOLS_DEFINITION, runFindTools, schemaTokens, ToolLoading, visibleTo } from '../lib/shipped';
import { summarize } from '../lib/stats';
import { labelledRequests, realServers, searchQuality, syntheticServers } from '../tool-search/labelled-set';

const SERVERS = 50;
const TOOLS_PER_SERVER = 40;
const ON_DEMAND = { budget: () => ({ threshold: 10_000, mode: 'on_demand' as const }), isPinned: () => false };

/** Tools on demand over a catalog, through the shipped ToolLoading and find_tools, nothing pinned. */
function onDemand(tools: CatalogTool[]) {
  const candidates = tools.filter((t) => t.enabled && visibleTo(t, 'model'));
  const loading = new ToolLoading({ all: () => tools, candidates: () => candidates, settings: ON_DEMAND });
  const searchTokens = schemaTokens(FIND_TOOLS_DEFINITION);
  /** Tool-definition tokens of the next request after these searches (find_tools + what they loaded). */
  const turnAfter = (queries: string[]) => {
    const loaded = new Set<string>();
    const resultTexts: string[] = [];
    for (const query of queries) {
      const found = runFindTools(loading, { query });
      if (!found.ok) throw new Error(found.error);
      for (const t of found.loaded) loaded.add(t.name);
      resultTexts.push(found.textForModel);
    }
    const plan = loading.plan(loaded);
    if (!plan.onDemand) throw new Error('the plan is not on demand');
    return { tokens: searchTokens + plan.offered.reduce((sum, t) => sum + loading.tokens(t), 0), resultTexts };
  };
  return { loading, candidates, allTokens: loading.budgetView().enabledTokens, turnAfter };
}

/**
 * Tool-definition tokens per model request with 50 servers / 2,000 tools built from real servers'
 * definitions: every enabled tool (what Switchboard sent before, and what "all" still sends) against
 * tools on demand (find_tools plus what the conversation's searches loaded), counted with o200k_base.
 */
export async function toolTokens(): Promise<Figure[]> {
  const { sources } = syntheticServers(SERVERS, TOOLS_PER_SERVER);
  const catalog = buildCatalog(sources.map((s) => ({ ...s, pending: false })), () => true).tools;
  const { candidates, allTokens, turnAfter } = onDemand(catalog);
  const requests = labelledRequests().map((r) => r.request);
  const one = requests.map((q) => turnAfter([q]));
  const three = requests.map((_, i) => turnAfter([requests[i]!, requests[(i + 70) % requests.length]!, requests[(i + 140) % requests.length]!]));
  const resultTokens = one.map((t) => countTokens(t.resultTexts[0]!));
  const all = { stats: summarize([allTokens]), work: `every enabled tool the model may see: ${candidates.length} of ${catalog.length} (the rest are app-only), each turn` };
  const note = `${SERVERS} servers × ${TOOLS_PER_SERVER} tools copied from ${realServers().reduce((n, s) => n + s.tools.length, 0)} real definitions (bench/tool-search/real-tools.json); o200k_base tokens of {name, description, inputSchema}; one value per labelled request (${requests.length})`;
  return [
    judge({
      id: 'tool-tokens-2000',
      title: 'tool tokens per turn, 2,000 tools: all vs on demand after one search',
      unit: 'tokens',
      target: { kind: 'ratio', max: 0.1 },
      raw: all,
      switchboard: { stats: summarize(one.map((t) => t.tokens)), work: 'find_tools + the 5 tools one search loaded' },
      note,
    }),
    judge({
      id: 'tool-tokens-2000-three',
      title: 'tool tokens per turn, 2,000 tools: on demand after three searches',
      unit: 'tokens',
      target: { kind: 'report' },
      raw: all,
      switchboard: { stats: summarize(three.map((t) => t.tokens)), work: 'find_tools + the tools three searches loaded (up to 15)' },
    }),
    judge({
      id: 'tool-tokens-search-result',
      title: 'tokens one find_tools result adds to the conversation (once)',
      unit: 'tokens',
      target: { kind: 'report' },
      switchboard: { stats: summarize(resultTokens), work: 'the text the model is told: 5 names, servers, descriptions cut at 300 characters' },
    }),
  ];
}

/** Recall@5 and MRR of find_tools' search on the labelled requests, over the real servers' tools, and over the 2,000-tool catalog. */
export async function toolSearchQuality(): Promise<Figure[]> {
  const real = buildCatalog(realServers().map((s) => ({ server: s.server, tools: s.tools, pending: false })), () => true).tools;
  const { loading, candidates } = onDemand(real);
  const names = (query: string, limit: number) => loading.search(query, limit).map((t) => `${t.server}/${t.name}`);
  const tuned = searchQuality(labelledRequests(), names);
  const heldOut = searchQuality(labelledRequests('held-out.tsv'), names);
  const heldOut2 = searchQuality(labelledRequests('held-out-2.tsv'), names);

  const { sources, origin } = syntheticServers(SERVERS, TOOLS_PER_SERVER);
  const big = onDemand(buildCatalog(sources.map((s) => ({ ...s, pending: false })), () => true).tools);
  const bigNames = (query: string, limit: number) => big.loading.search(query, limit).map((t) => origin(t.server, t.name));
  const bigTuned = searchQuality(labelledRequests(), bigNames);
  const started = performance.now();
  const requests = labelledRequests();
  for (const r of requests) big.loading.search(r.request, 5);
  const perQuery = (performance.now() - started) / requests.length;

  const misses = (q: ReturnType<typeof searchQuality>) => q.misses.map((m) => `"${m.request}"`).join('; ') || 'none';
  const over = `over the ${candidates.length} tools the model may see of 6 real servers (bench/tool-search/real-tools.json)`;
  const row = (id: string, title: string, value: number, target: Figure['target'], work: string, note?: string) =>
    judge({ id, title, unit: '', target, switchboard: { stats: summarize([value]), work }, ...(note ? { note } : {}) });
  return [
    row('search-recall5', `tool search recall@5, ${requests.length} labelled requests`, tuned.recallAtK, { kind: 'minimum', min: 0.95, unit: '' }, `MiniSearch BM25 + stemming + synonyms + WordNet + action lexicon, ${over}`, `misses: ${misses(tuned)}. Tuned while reading this set's misses: see the held-out-2 row`),
    row('search-mrr', 'tool search MRR, same requests', tuned.mrr, { kind: 'report' }, over),
    row('search-recall5-held-out', `tool search recall@5, ${labelledRequests('held-out.tsv').length} requests of held-out.tsv (read while tuning the second pass)`, heldOut.recallAtK, { kind: 'report' }, over, `MRR ${heldOut.mrr.toFixed(3)}; misses: ${misses(heldOut)}`),
    row('search-recall5-held-out-2', `tool search recall@5, ${labelledRequests('held-out-2.tsv').length} held-out requests (held-out-2.tsv, never tuned on)`, heldOut2.recallAtK, { kind: 'minimum', min: 0.95, unit: '' }, over, `MRR ${heldOut2.mrr.toFixed(3)}; misses: ${misses(heldOut2)}`),
    row('search-recall5-2000', 'tool search recall@5 over the 2,000-tool catalog (a copy of the right tool counts)', bigTuned.recallAtK, { kind: 'report' }, `${big.candidates.length} tools the model may see, ${SERVERS} servers`, `MRR ${bigTuned.mrr.toFixed(3)}`),
    judge({
      id: 'search-latency-2000',
      title: 'one tool search over 2,000 tools (index built)',
      unit: 'ms',
      target: { kind: 'report' },
      switchboard: { stats: summarize([perQuery]), work: `mean of ${requests.length} searches, after the first built the index` },
    }),
  ];
}
