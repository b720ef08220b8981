import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogSource } from '../../src-main/core/mcp/tool-catalog';
import { buildCatalog } from '../lib/shipped';
import { judge, type Figure } from '../lib/figure';
import { benchServer, rawConnect } from '../lib/servers';
import { interleave, summarize } from '../lib/stats';

const SERVERS = 50;
const TOOLS_PER_SERVER = 40;

/** Real definitions as the SDK serves them: one bench server with 40 tools, listed once over stdio. */
async function realToolList(): Promise<Tool[]> {
  const client = await rawConnect(benchServer(TOOLS_PER_SERVER - 2));
  try {
    const { tools } = await client.listTools();
    if (tools.length !== TOOLS_PER_SERVER) throw new Error(`the bench server listed ${tools.length} tools, expected ${TOOLS_PER_SERVER}`);
    return tools;
  } finally {
    await client.close();
  }
}

/**
 * Catalog build for 2,000 tools across 50 servers: Switchboard's buildCatalog (sorting, naming,
 * sanitizing, collision detection, schema patching, per-tool enabled flag) against what a raw SDK
 * host minimally does with 50 listTools results: concatenate them under "<server>__<tool>" names.
 * Each run builds from fresh copies of the lists (parsed from JSON), as a new tools/list would give.
 */
export async function catalogBuild(runs: number): Promise<Figure> {
  const listJson = JSON.stringify(await realToolList());
  const fresh = (): { server: string; tools: Tool[] }[] =>
    Array.from({ length: SERVERS }, (_, i) => ({ server: `server-${String(i).padStart(2, '0')}`, tools: JSON.parse(listJson) as Tool[] }));
  let built = 0;
  const times = await interleave(runs, {
    raw: async () => {
      const lists = fresh();
      const started = performance.now();
      const all = lists.flatMap(({ server, tools }) => tools.map((tool) => ({ ...tool, name: `${server}__${tool.name}`, server })));
      const ms = performance.now() - started;
      if (all.length !== SERVERS * TOOLS_PER_SERVER) throw new Error(`raw catalog has ${all.length} tools`);
      return ms;
    },
    switchboard: async () => {
      const sources: CatalogSource[] = fresh().map(({ server, tools }) => ({ server, tools, pending: false }));
      const started = performance.now();
      const catalog = buildCatalog(sources, () => true);
      const ms = performance.now() - started;
      built = catalog.tools.length;
      return ms;
    },
  });
  if (built !== SERVERS * TOOLS_PER_SERVER) throw new Error(`Switchboard's catalog has ${built} tools, expected ${SERVERS * TOOLS_PER_SERVER}`);
  return judge({
    id: 'catalog-build-2000',
    title: `catalog build, ${(SERVERS * TOOLS_PER_SERVER).toLocaleString('en-US')} tools across ${SERVERS} servers`,
    unit: 'ms',
    target: { kind: 'absolute', max: 50, unit: 'ms' },
    raw: { stats: summarize(times.raw), work: 'flatMap of 50 tools/list results into "<server>__<tool>" entries' },
    switchboard: { stats: summarize(times.switchboard), work: 'buildCatalog(50 sources × 40 SDK-served definitions)' },
    note: 'first run included (cold JIT), as at app start',
  });
}
