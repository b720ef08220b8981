import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpManager } from '../lib/shipped';
import { judge, type Figure } from '../lib/figure';
import { benchServer, quietLogger, rawConnect, stdioConfig, tempHome } from '../lib/servers';
import { interleave, summarize } from '../lib/stats';

/** 10 MB (decimal): under the raw SDK's own 10 MiB stdio read cap, so both sides can receive it. */
const CHARS = 10_000_000;
const LARGE_LINE_CAP = 32 * 1024 * 1024;

/**
 * A 10 MB text result end to end over stdio: the raw SDK's callTool against McpManager.callServerTool
 * (call, map, truncate). Switchboard runs twice: with its default stdout line cap, and with the cap
 * raised so the line fits (McpManagerDeps.maxLineBytes).
 */
export async function bigResultEndToEnd(runs: number): Promise<Figure[]> {
  const { home, cleanup } = await tempHome('big-e2e');
  const byDefault = new McpManager({ home, logger: quietLogger });
  const raised = new McpManager({ home, logger: quietLogger, maxLineBytes: LARGE_LINE_CAP });
  let raw: Client | undefined;
  try {
    await byDefault.apply([stdioConfig('big', benchServer(0), home)]);
    await raised.apply([stdioConfig('big', benchServer(0), home)]);
    await Promise.all([byDefault.settled(30_000), raised.settled(30_000)]);
    raw = await rawConnect(benchServer(0));
    const client = raw;
    let defaultOutcome: string;
    try {
      const r = await byDefault.callServerTool('big', 'big-text', { n: CHARS });
      defaultOutcome = `succeeded (${r.truncatedChars.toLocaleString('en-US')} characters cut)`;
    } catch (error) {
      defaultOutcome = `failed: ${error instanceof Error ? error.message : String(error)}; server state afterwards: ${byDefault.status('big')?.state.kind}`;
    }
    const times = await interleave(runs, {
      raw: async () => {
        const started = performance.now();
        const r = await client.callTool({ name: 'big-text', arguments: { n: CHARS } });
        const ms = performance.now() - started;
        if (!Array.isArray(r.content) || (r.content[0] as { text?: string }).text?.length !== CHARS) throw new Error('raw SDK: big-text did not return 10 MB');
        return ms;
      },
      switchboard: async () => {
        const started = performance.now();
        const r = await raised.callServerTool('big', 'big-text', { n: CHARS });
        const ms = performance.now() - started;
        if (r.truncatedChars === 0) throw new Error('Switchboard: the 10 MB result was not truncated');
        return ms;
      },
    });
    return [
      judge({
        id: 'big-result-e2e',
        title: '10 MB text result end to end over stdio (line cap raised)',
        unit: 'ms',
        target: { kind: 'report' },
        raw: { stats: summarize(times.raw), work: `Client.callTool big-text n=${CHARS.toLocaleString('en-US')}` },
        switchboard: { stats: summarize(times.switchboard), work: `McpManager.callServerTool with maxLineBytes ${LARGE_LINE_CAP / 1024 / 1024} MiB: call + capCallResult` },
        note: `with the default stdout line cap the same call ${defaultOutcome}`,
      }),
    ];
  } finally {
    await raw?.close().catch(() => {});
    await byDefault.stop();
    await raised.stop();
    await cleanup();
  }
}
