import { fork, type ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startWebHost, WS_PATH } from '../lib/shipped';
import { CoreCallPath } from '../lib/core-call-path';
import { startCore } from '../lib/core';
import { judge, type Figure } from '../lib/figure';
import { everything, rawConnect, REPO } from '../lib/servers';
import { interleaveBlocks, summarize } from '../lib/stats';
import { join } from 'node:path';

const CALLS = 1000;
/** Each run's 1,000 calls go in blocks of 100, the sides taking turns (see interleaveBlocks). */
const BLOCKS = 10;
const WARMUP = 200;
const ECHO_ARGS = { message: 'hello from the bench' };
const ECHO_TEXT = `Echo: ${ECHO_ARGS.message}`;

/** Main-process CPU (user + system, ms) spent by each side, summed over its runs. */
type CpuTally = Record<string, number>;

async function sequential(count: number, one: () => Promise<void>, cpu: CpuTally, side: string): Promise<number> {
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < count; i++) await one();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpuStart);
  cpu[side] = (cpu[side] ?? 0) + (used.user + used.system) / 1000;
  return wall;
}

function textOf(content: unknown): string | undefined {
  const first = Array.isArray(content) ? (content[0] as { text?: unknown } | undefined) : undefined;
  return typeof first?.text === 'string' ? first.text : undefined;
}

/**
 * 1,000 sequential echo calls: the raw SDK's callTool, Switchboard's core path, and, through
 * web mode's WebSocket bridge, the nearest invoke that exists (readResource) against the raw SDK's
 * readResource on the same server. Each side has its own server-everything process (stdio).
 */
export async function toolCalls(runs: number): Promise<Figure[]> {
  let raw: Client | undefined;
  const running = await startCore('calls', { everything: everything() });
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browserSide: ChildProcess | undefined;
  try {
    raw = await rawConnect(everything());
    const client = raw;
    const path = new CoreCallPath(running.core);
    const echoName = running.core.mcp.tools('everything').find((t) => t.tool === 'echo')?.name;
    if (!echoName) throw new Error('server-everything has no echo tool in the catalog');

    const rawCall = async () => {
      const r = await client.callTool({ name: 'echo', arguments: ECHO_ARGS });
      if (textOf(r.content) !== ECHO_TEXT) throw new Error(`raw SDK echo returned ${JSON.stringify(r.content)}`);
    };
    const coreCall = async () => {
      const r = await path.call(echoName, ECHO_ARGS);
      if (textOf(r.content) !== ECHO_TEXT) throw new Error(`Switchboard echo returned ${JSON.stringify(r.content)}`);
    };

    host = await startWebHost({ handlers: running.core.handlers, events: running.core.events, rendererDir: join(REPO, 'out/renderer') });
    const resources = await client.listResources();
    const uri = resources.resources.find((r) => r.mimeType?.startsWith('text/'))?.uri ?? resources.resources[0]?.uri;
    if (!uri) throw new Error('server-everything lists no resources');
    const rawRead = async () => {
      const r = await client.readResource({ uri });
      if (r.contents.length !== 1) throw new Error(`raw SDK readResource returned ${r.contents.length} parts`);
    };
    // The browser's side runs in its own process, as Chromium would; it times its own blocks.
    browserSide = fork(join(REPO, 'bench/probes/ws-client-probe.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const child = browserSide;
    const ask = (message: object) =>
      new Promise<{ ms?: number; error?: string; ready?: boolean }>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the WebSocket client process exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (reply: { ms?: number; error?: string; ready?: boolean }) => {
          child.off('exit', onExit);
          resolve(reply);
        });
        child.send(message);
      });
    await ask({ setup: { url: `ws://127.0.0.1:${host.port}${WS_PATH}?token=${host.token}`, origin: `http://127.0.0.1:${host.port}`, server: 'everything', uri } });
    const wsBlock = async (count: number, cpu: CpuTally): Promise<number> => {
      const cpuStart = process.cpuUsage();
      const reply = await ask({ run: count });
      const used = process.cpuUsage(cpuStart);
      cpu.ws = (cpu.ws ?? 0) + (used.user + used.system) / 1000;
      if (reply.error !== undefined || reply.ms === undefined) throw new Error(reply.error ?? 'the WebSocket client sent no time');
      return reply.ms;
    };

    const warmCpu: CpuTally = {};
    for (const warm of [rawCall, coreCall, rawRead]) await sequential(WARMUP, warm, warmCpu, 'warm-up');
    await wsBlock(WARMUP, warmCpu);
    const block = CALLS / BLOCKS;
    const cpu: CpuTally = {};
    const times = await interleaveBlocks(runs, BLOCKS, {
      raw: () => sequential(block, rawCall, cpu, 'raw'),
      core: () => sequential(block, coreCall, cpu, 'core'),
      rawRead: () => sequential(block, rawRead, cpu, 'rawRead'),
      ws: () => wsBlock(block, cpu),
    });
    const perRun = (side: string) => (cpu[side] ?? 0) / runs;
    return [
      judge({
        id: 'calls-core-1000',
        title: `${CALLS.toLocaleString('en-US')} sequential tools/call (echo), core path`,
        unit: 'ms',
        target: { kind: 'ratio', max: 1.1 },
        raw: { stats: summarize(times.raw), work: `Client.callTool echo ×${CALLS}` },
        switchboard: { stats: summarize(times.core), work: `ToolRuntime.listTools + lookup + core.chat.broker (approval: auto) + ToolRuntime.callTool → McpManager.callTool + mapCallResult ×${CALLS}` },
        note: `main-process CPU per run: Switchboard ${perRun('core').toFixed(0)} ms, raw SDK ${perRun('raw').toFixed(0)} ms (ratio ${(perRun('core') / perRun('raw')).toFixed(2)}); wall time is mostly waiting on the server`,
      }),
      judge({
        id: 'calls-ws-1000',
        title: `${CALLS.toLocaleString('en-US')} sequential requests through the web-mode WebSocket bridge`,
        unit: 'ms',
        target: { kind: 'ratio', max: 1.5 },
        raw: { stats: summarize(times.rawRead), work: `Client.readResource ×${CALLS}` },
        switchboard: { stats: summarize(times.ws), work: `createWsApi in a child process → startWebHost → dispatch → readResource handler → McpManager ×${CALLS}` },
        note: `main-process CPU per run (the host's side; the client is its own process, as a browser is): ${perRun('ws').toFixed(0)} ms vs raw SDK ${perRun('rawRead').toFixed(0)} ms; the contract has no invoke that runs a tool call (tools are called by the chat in main), so the bridge is measured with readResource, one MCP request per invoke, against the raw SDK readResource`,
      }),
    ];
  } finally {
    if (browserSide && browserSide.exitCode === null) {
      const exited = new Promise((done) => browserSide!.once('exit', done));
      browserSide.send({ stop: true });
      await exited;
    }
    await host?.close();
    await raw?.close().catch(() => {});
    await running.stop();
  }
}
