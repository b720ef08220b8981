// Child process for the RSS figure: connects 10 stdio servers one way, then prints its memory.
// Built with the shipped code (bench/lib/shipped-build.ts) and run with plain node:
// node --expose-gc bench/.shipped/rss-probe.mjs bare|raw|switchboard|switchboard-sandboxed|raw-0|switchboard-0|web-0
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as MainCore from '../lib/shipped-core-entry';
import type * as WebHost from '../lib/shipped-web-entry';
import { collectGarbage } from '../../soak/lib/memory';
import { sandboxHelpers } from '../lib/sandbox-helpers';

const mode = process.argv[2];
/** `raw` and `switchboard` connect 10; the `-0` modes load the same code and connect none (the fixed cost). */
const SERVERS = mode?.endsWith('-0') ? 0 : 10;
const here = dirname(fileURLToPath(import.meta.url));
const REPO = join(here, '../..');

/**
 * A module of the shipped build, which sits next to this file: the core alone (main-core.mjs, what the
 * Electron shell's main process loads of Switchboard), or the web host (web-host.mjs, what web mode adds).
 */
const shipped = <T>(name: 'main-core' | 'web-host'): Promise<T> => import(pathToFileURL(join(here, `${name}.mjs`)).href) as Promise<T>;
/** The JS engine gives back the pages a burst of work grew its heap by only once the process has been idle a while (its memory reducer). */
const STEADY_AFTER_MS = Number(process.env.RSS_PROBE_STEADY_MS ?? 20_000);

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** RSS 500 ms after the servers are up ("connected"), and after an idle spell ("steady"), each after a full gc. */
async function measure(extra: Record<string, unknown> = {}): Promise<void> {
  await sleep(500);
  // The soak's settled collection: on Node 24 a plain gc() leaves the pages a grown young generation freed resident.
  collectGarbage();
  const connected = process.memoryUsage();
  const timeline: number[] = [];
  for (let waited = 0; waited < STEADY_AFTER_MS; waited += 1000) {
    await sleep(1000);
    timeline.push(Math.round(process.memoryUsage().rss / 1e5) / 10);
  }
  collectGarbage();
  const steady = process.memoryUsage();
  const out = { mode, rss: connected.rss, heapUsed: connected.heapUsed, steadyRss: steady.rss, steadyHeapUsed: steady.heapUsed, ...(process.env.RSS_PROBE_TIMELINE ? { timeline } : {}), ...extra };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

async function main(): Promise<void> {
  switch (mode) {
    case 'bare': {
      await measure();
      return;
    }
    case 'raw':
    case 'raw-0': {
      const { closeAll, everything, rawConnect } = await import('../lib/servers');
      const clients: Client[] = await Promise.all(
        Array.from({ length: SERVERS }, async () => {
          const client = await rawConnect(everything());
          await client.listTools();
          return client;
        }),
      );
      await measure({ servers: clients.length });
      await closeAll(clients);
      return;
    }
    case 'switchboard':
    case 'switchboard-sandboxed':
    case 'switchboard-0':
    case 'web-0': {
      const { everything } = await import('../lib/servers');
      const { newCoreWith, startCoreWith } = await import('../lib/running-core');
      const classes = await shipped<typeof MainCore>('main-core');
      const sandboxEnabled = mode === 'switchboard-sandboxed';
      const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`everything-${i}`, { ...everything(), ...(sandboxEnabled ? { sandboxEnabled } : {}) }]));
      const running = await startCoreWith('rss', servers, (home) => newCoreWith(classes, home));
      // Web mode: the same core served on 127.0.0.1, as src-main/web.ts starts it (no browser connects).
      const { startWebHost } = mode === 'web-0' ? await shipped<typeof WebHost>('web-host') : { startWebHost: undefined };
      const host = await startWebHost?.({ handlers: running.core.handlers, events: running.core.events, rendererDir: join(REPO, 'out/renderer'), port: 0 });
      // What the window asks for first: the servers view, with every tool's tokens counted.
      running.core.snapshot();
      await running.core.chat.loading.ready();
      await measure({ servers: running.core.mcp.statuses().filter((s) => s.state.kind === 'connected').length, ...(sandboxEnabled ? { helpers: sandboxHelpers() } : {}) });
      await host?.close();
      await running.stop();
      return;
    }
    default:
      throw new Error(`rss-probe: unknown mode "${mode}" (expected bare, raw, switchboard, switchboard-sandboxed, raw-0, switchboard-0 or web-0)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`rss-probe ${mode}: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
