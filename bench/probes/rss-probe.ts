// Child process for the RSS figure: connects 10 stdio servers one way, then prints its memory.
// Usage: node --expose-gc --import tsx bench/probes/rss-probe.ts bare|raw|switchboard
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const SERVERS = 10;
const mode = process.argv[2];

async function settle(): Promise<void> {
  await new Promise((done) => setTimeout(done, 500));
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
}

function report(extra: Record<string, unknown> = {}): void {
  const { rss, heapUsed } = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ mode, rss, heapUsed, ...extra })}\n`);
}

async function main(): Promise<void> {
  switch (mode) {
    case 'bare': {
      await settle();
      report();
      return;
    }
    case 'raw': {
      const { closeAll, everything, rawConnect } = await import('../lib/servers');
      const clients: Client[] = await Promise.all(
        Array.from({ length: SERVERS }, async () => {
          const client = await rawConnect(everything());
          await client.listTools();
          return client;
        }),
      );
      await settle();
      report({ servers: clients.length });
      await closeAll(clients);
      return;
    }
    case 'switchboard': {
      const { everything } = await import('../lib/servers');
      const { startCore } = await import('../lib/core');
      const servers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`everything-${i}`, everything()]));
      const running = await startCore('rss', servers);
      await settle();
      report({ servers: running.core.mcp.statuses().filter((s) => s.state.kind === 'connected').length });
      await running.stop();
      return;
    }
    default:
      throw new Error(`rss-probe: unknown mode "${mode}" (expected bare, raw or switchboard)`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`rss-probe ${mode}: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
