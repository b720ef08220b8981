import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { launchHash, loadConfig, ToolCache } from '../lib/shipped';
import { newCore, writeServersFile } from '../lib/core';
import { judge, type Figure } from '../lib/figure';
import { benchServer, childrenGone, closeAll, rawConnect, tempHome } from '../lib/servers';
import { summarize } from '../lib/stats';

const TOOLS_PER_SERVER = 40;

/**
 * Warm start with N servers whose tools are in the cache: from constructing the core to its
 * catalog holding every server's cached tools (marked pending). Includes reading servers.json,
 * the tool cache and the per-tool settings; the servers start connecting in the background and
 * are stopped after each run. The cache is the manager's own ToolCache, keyed by launch hash,
 * filled with a real tools/list of the bench server.
 * The raw SDK has no cache: its figure is the cold connect + listTools of the same N servers.
 */
export async function warmStart(counts: number[], runsFor: (n: number) => number, rawRunsFor: (n: number) => number): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const n of counts) {
    const { home, cleanup } = await tempHome(`warm-${n}`);
    try {
      const servers = Object.fromEntries(Array.from({ length: n }, (_, i) => [`bench-${String(i).padStart(2, '0')}`, benchServer(TOOLS_PER_SERVER - 2, String(i))]));
      await writeServersFile(home, servers);
      const probe = await rawConnect(benchServer(TOOLS_PER_SERVER - 2));
      const { tools } = await probe.listTools();
      await probe.close();
      const cache = new ToolCache(home);
      const { servers: configs } = await loadConfig({ home, projectDirs: [] });
      if (configs.length !== n) throw new Error(`warm start: servers.json gave ${configs.length} servers, expected ${n}`);
      await Promise.all(configs.map((c) => cache.write(launchHash(c), tools)));

      const times: number[] = [];
      for (let run = 0; run < runsFor(n); run++) {
        const started = performance.now();
        const core = newCore(home);
        try {
          await core.start();
          const catalog = core.mcp.tools();
          const ms = performance.now() - started;
          if (catalog.length !== n * TOOLS_PER_SERVER) throw new Error(`warm start N=${n}: the catalog had ${catalog.length} tools, expected ${n * TOOLS_PER_SERVER}`);
          times.push(ms);
        } finally {
          await core.stop();
        }
        const left = await childrenGone();
        if (left > 0) throw new Error(`warm start N=${n}: ${left} server processes still running after stop`);
      }

      const rawTimes: number[] = [];
      for (let run = 0; run < rawRunsFor(n); run++) {
        const started = performance.now();
        const clients: Client[] = await Promise.all(
          configs.map(async () => {
            const client = await rawConnect(benchServer(TOOLS_PER_SERVER - 2));
            await client.listTools();
            return client;
          }),
        );
        rawTimes.push(performance.now() - started);
        await closeAll(clients);
        await childrenGone();
      }
      figures.push(
        judge({
          id: `warm-start-${n}`,
          title: `warm start: catalog from cache, N = ${n}`,
          unit: 'ms',
          target: { kind: 'absolute', max: 50, unit: 'ms' },
          raw: { stats: summarize(rawTimes), work: `no cache: connect + listTools on ${n} bench servers in parallel` },
          switchboard: { stats: summarize(times), work: `new SwitchboardCore + start() until tools() holds ${n * TOOLS_PER_SERVER} cached tools` },
        }),
      );
    } finally {
      await cleanup();
    }
  }
  return figures;
}
