// Search quality alone, without building the app or starting anything: recall@5 and MRR of the
// tool search over the real servers' tools (and the 2,000-tool catalog), index build and search time.
//   npx tsx bench/tool-search/recall.ts [requests.tsv|held-out.tsv|held-out-2.tsv …] [--misses] [--big]
// The same rows `npm run bench` prints (figures/tool-budget.ts), from the TypeScript sources.
import { buildCatalog } from '../../src-main/core/mcp/tool-catalog';
import { ToolSearchIndex } from '../../src-main/core/tools/tool-search';
import { visibleTo, type CatalogTool } from '../../src-preload/contract/tools';
import { LABELLED_SETS, labelledRequests, realServers, searchQuality, syntheticServers, type LabelledSet } from './labelled-set';

const args = process.argv.slice(2);
const sets = args.filter((a): a is LabelledSet => (LABELLED_SETS as readonly string[]).includes(a));
const showMisses = args.includes('--misses');

/** What ToolLoading.search searches with nothing pinned: the enabled tools the model may see. */
function indexOver(tools: CatalogTool[]): ToolSearchIndex {
  return new ToolSearchIndex(tools.filter((t) => t.enabled && visibleTo(t, 'model')));
}

function timed<T>(work: () => T): [T, number] {
  const started = performance.now();
  const result = work();
  return [result, performance.now() - started];
}

const rssBefore = process.memoryUsage().rss;
const [real, realBuildMs] = timed(() => indexOver(buildCatalog(realServers().map((s) => ({ server: s.server, tools: s.tools, pending: false })), () => true).tools));
const [, firstSearchMs] = timed(() => real.search('read a file', 5));
for (const set of sets.length ? sets : (['requests.tsv', 'held-out.tsv'] as const)) {
  const requests = labelledRequests(set);
  const [quality, ms] = timed(() => searchQuality(requests, (q, n) => real.search(q, n).map((t) => `${t.server}/${t.name}`)));
  console.log(`${set.padEnd(15)} ${String(requests.length).padStart(3)} requests  recall@5 ${quality.recallAtK.toFixed(3)}  MRR ${quality.mrr.toFixed(3)}  (${(ms / requests.length).toFixed(2)} ms a search)`);
  if (showMisses) for (const m of quality.misses) console.log(`   miss: "${m.request}" → want ${m.expected.join(' | ')}; got ${m.got.join(', ')}`);
}
console.log(`real tools: index built in ${realBuildMs.toFixed(1)} ms, first search ${firstSearchMs.toFixed(1)} ms; RSS +${((process.memoryUsage().rss - rssBefore) / 2 ** 20).toFixed(1)} MB since start`);

if (args.includes('--big')) {
  const { sources, origin } = syntheticServers(50, 40);
  const catalog = buildCatalog(sources.map((s) => ({ ...s, pending: false })), () => true).tools;
  const [big, buildMs] = timed(() => indexOver(catalog));
  const requests = labelledRequests();
  const [quality, ms] = timed(() => searchQuality(requests, (q, n) => big.search(q, n).map((t) => origin(t.server, t.name))));
  console.log(`2,000 tools: requests.tsv recall@5 ${quality.recallAtK.toFixed(3)}  MRR ${quality.mrr.toFixed(3)}; index built in ${buildMs.toFixed(0)} ms; ${(ms / requests.length).toFixed(2)} ms a search`);
}
