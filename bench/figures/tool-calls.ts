import { fork, type ChildProcess } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CoreCallPath, startWebHost, WS_PATH } from '../lib/shipped';
import { startCore } from '../lib/core';
import { judge, type Figure } from '../lib/figure';
import { everything, rawConnect, REPO } from '../lib/servers';
import { interleaveBlocks, summarize } from '../lib/stats';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';

const CALLS = 1000;
/** Each run's 1,000 calls go in blocks of 100, the sides taking turns (see interleaveBlocks). */
const BLOCKS = 10;
const WARMUP = 500;
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
 * 1,000 sequential echo calls: Switchboard's core path against the raw SDK's callTool, and the tools
 * panel's runTool through web mode's WebSocket bridge (from a client in another process) against
 * the raw SDK again, each pair taking turns block by block. The raw SDK has its own server-everything
 * process (stdio); both Switchboard sides use the core's. The bridge's floor calls the core's server
 * process too, through the core's own SDK Client: two server processes can differ by more than the
 * 15% being judged (measured 2026-11-24: a bare WebSocket + Client.callTool read 301 vs 396 µs a call
 * and 378 vs 544 µs against the two), so the floor holds the server fixed. It also moves what the
 * bridge must move (the call named in JSON, read on arrival; the answer in the same envelope), so it
 * differs from the bridge only by Switchboard's code; the bare floor of earlier runs is a reported row.
 */
export async function toolCalls(runs: number): Promise<Figure[]> {
  let raw: Client | undefined;
  const running = await startCore('calls', { everything: everything() });
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browserSide: ChildProcess | undefined;
  const floorServers: WebSocketServer[] = [];
  try {
    const path = new CoreCallPath(running.core);
    const echoName = running.core.mcp.tools('everything').find((t) => t.name === 'echo')?.qualifiedName;
    if (!echoName) throw new Error('server-everything has no echo tool in the catalog');

    const rawCall = async () => {
      const r = await raw!.callTool({ name: 'echo', arguments: ECHO_ARGS });
      if (textOf(r.content) !== ECHO_TEXT) throw new Error(`raw SDK echo returned ${JSON.stringify(r.content)}`);
    };
    const coreCall = async () => {
      const r = await path.call(echoName, ECHO_ARGS);
      if (textOf(r.content) !== ECHO_TEXT) throw new Error(`Switchboard echo returned ${JSON.stringify(r.content)}`);
    };

    host = await startWebHost({ handlers: running.core.handlers, events: running.core.events, rendererDir: join(REPO, 'out/renderer') });
    // The browser's side runs in its own process, as Chromium would; it times its own blocks.
    browserSide = fork(join(REPO, 'bench/probes/ws-client-probe.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const child = browserSide;
    const ask = (message: object) =>
      new Promise<{ ms?: number; cpuMs?: number; error?: string; ready?: boolean }>((resolve, reject) => {
        const onExit = (code: number | null) => reject(new Error(`the WebSocket client process exited (${code})`));
        child.once('exit', onExit);
        child.once('message', (reply: { ms?: number; cpuMs?: number; error?: string; ready?: boolean }) => {
          child.off('exit', onExit);
          resolve(reply);
        });
        child.send(message);
      });
    await ask({
      setup: { url: `ws://127.0.0.1:${host.port}${WS_PATH}?token=${host.token}`, origin: `http://127.0.0.1:${host.port}`, server: 'everything', tool: 'echo', args: ECHO_ARGS, expect: ECHO_TEXT },
    });
    const wsBlock = async (count: number, cpu: CpuTally, side = 'ws'): Promise<number> => {
      const cpuStart = process.cpuUsage();
      const reply = await ask({ run: count });
      const used = process.cpuUsage(cpuStart);
      cpu[side] = (cpu[side] ?? 0) + (used.user + used.system) / 1000;
      cpu[`${side}Browser`] = (cpu[`${side}Browser`] ?? 0) + (reply.cpuMs ?? 0);
      if (reply.error !== undefined || reply.ms === undefined) throw new Error(reply.error ?? 'the WebSocket client sent no time');
      return reply.ms;
    };
    // The bridge's physical floor between the same two processes: one bare WebSocket round trip
    // (no token, no contract, no dispatch) around a raw SDK Client.callTool to the same server
    // process the bridge reaches (the core's own Client, fetched again after each reconnect). The
    // judged floor carries the call as the bridge must: the browser sends the bridge's invoke (server,
    // tool, arguments), the floor reads it and calls what it names, and answers in the bridge's
    // envelope. The bare floor sends a counter and answers with the result alone (reported).
    let floorClient: Client | undefined;
    const floorWss = await listeningWebSocketServer();
    floorServers.push(floorWss);
    floorWss.on('connection', (socket) => {
      socket.on('message', (data: Buffer) => {
        const invoke = JSON.parse(data.toString()) as { id: number; payload: { tool: string; args: Record<string, unknown> } };
        floorClient!.callTool({ name: invoke.payload.tool, arguments: invoke.payload.args }).then(
          (value) => socket.send(JSON.stringify({ type: 'result', id: invoke.id, result: { ok: true, value } })),
          (error: unknown) => socket.send(JSON.stringify({ type: 'result', id: invoke.id, result: { ok: false, error: String(error) } })),
        );
      });
    });
    const bareWss = await listeningWebSocketServer();
    floorServers.push(bareWss);
    bareWss.on('connection', (socket) => {
      socket.on('message', () => {
        floorClient!.callTool({ name: 'echo', arguments: ECHO_ARGS }).then(
          (result) => socket.send(JSON.stringify(result)),
          (error: unknown) => socket.send(JSON.stringify({ error: String(error) })),
        );
      });
    });
    for (const [name, wss, carries] of [['floor', floorWss, true], ['bareFloor', bareWss, false]] as const) {
      const ready = await ask({ floor: { name, url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}`, expect: ECHO_TEXT, carries } });
      if (ready.error) throw new Error(`the ${name} WebSocket did not open: ${ready.error}`);
    }
    const floorBlock = async (count: number, cpu: CpuTally, name: 'floor' | 'bareFloor' = 'floor'): Promise<number> => {
      const cpuStart = process.cpuUsage();
      const reply = await ask({ runFloor: count, name });
      const used = process.cpuUsage(cpuStart);
      cpu[name] = (cpu[name] ?? 0) + (used.user + used.system) / 1000;
      cpu[`${name}Browser`] = (cpu[`${name}Browser`] ?? 0) + (reply.cpuMs ?? 0);
      if (reply.error !== undefined || reply.ms === undefined) throw new Error(reply.error ?? `the ${name} client sent no time`);
      return reply.ms;
    };

    // Every run starts fresh server processes on both sides: one server process can be lastingly
    // faster or slower than another (where it lands, how its JIT went), which would otherwise
    // decide a 10% figure for the whole run.
    const block = CALLS / BLOCKS;
    const cpu: CpuTally = {};
    const times: Record<'raw' | 'core' | 'rawForWs' | 'ws' | 'floor' | 'wsForFloor' | 'bareFloor' | 'wsForBare', number[]> = { raw: [], core: [], rawForWs: [], ws: [], floor: [], wsForFloor: [], bareFloor: [], wsForBare: [] };
    for (let run = 0; run < runs; run++) {
      await raw?.close();
      // Both servers start together, so neither is the older process when the clock runs.
      [raw] = await Promise.all([rawConnect(everything()), running.core.mcp.reconnect('everything')]);
      const state = running.core.mcp.status('everything')?.state;
      if (state?.kind !== 'connected') throw new Error(`the core's server did not reconnect: ${state?.kind}`);
      floorClient = await path.sdkClient('everything');
      const warmCpu: CpuTally = {};
      const warmups = [
        () => sequential(WARMUP, rawCall, warmCpu, 'warm-up'),
        () => sequential(WARMUP, coreCall, warmCpu, 'warm-up'),
        () => wsBlock(WARMUP, warmCpu),
        () => floorBlock(WARMUP, warmCpu),
        () => floorBlock(WARMUP, warmCpu, 'bareFloor'),
      ];
      for (const warm of run % 2 === 0 ? warmups : warmups.reverse()) await warm();
      // Each figure takes turns with the raw SDK on its own: a third side in the same rotation
      // (another process waking between blocks) would shift one side's blocks more than the other's.
      const pairs = [
        async () => {
          const one = await interleaveBlocks(1, BLOCKS, { raw: () => sequential(block, rawCall, cpu, 'raw'), core: () => sequential(block, coreCall, cpu, 'core') });
          times.raw.push(...one.raw);
          times.core.push(...one.core);
        },
        async () => {
          const one = await interleaveBlocks(1, BLOCKS, { raw: () => sequential(block, rawCall, cpu, 'rawForWs'), ws: () => wsBlock(block, cpu) });
          times.rawForWs.push(...one.raw);
          times.ws.push(...one.ws);
        },
        async () => {
          const one = await interleaveBlocks(1, BLOCKS, { floor: () => floorBlock(block, cpu), ws: () => wsBlock(block, cpu, 'wsForFloor') });
          times.floor.push(...one.floor);
          times.wsForFloor.push(...one.ws);
        },
        async () => {
          const one = await interleaveBlocks(1, BLOCKS, { floor: () => floorBlock(block, cpu, 'bareFloor'), ws: () => wsBlock(block, cpu, 'wsForBare') });
          times.bareFloor.push(...one.floor);
          times.wsForBare.push(...one.ws);
        },
      ];
      for (const pair of run % 2 === 0 ? pairs : pairs.reverse()) await pair();
    }
    const perRun = (side: string) => (cpu[side] ?? 0) / runs;
    // The same runs read pairwise: each run's Switchboard time over the raw time beside it.
    const paired = (mine: number[], theirs: number[]) => {
      const ratios = summarize(mine.map((value, i) => value / theirs[i]!));
      return `run by run, Switchboard ÷ raw: median ${ratios.median.toFixed(3)} [${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)}]`;
    };
    return [
      judge({
        id: 'calls-core-1000',
        title: `${CALLS.toLocaleString('en-US')} sequential tools/call (echo), core path`,
        unit: 'ms',
        target: { kind: 'ratio', max: 1.1 },
        raw: { stats: summarize(times.raw), work: `Client.callTool echo ×${CALLS}` },
        switchboard: { stats: summarize(times.core), work: `ToolRuntime.listTools + lookup + core.chat.broker (approval: auto) + ToolRuntime.callTool → McpManager.callTool + mapCallResult ×${CALLS}` },
        note: `${paired(times.core, times.raw)}; main-process CPU per run: Switchboard ${perRun('core').toFixed(0)} ms, raw SDK ${perRun('raw').toFixed(0)} ms (ratio ${(perRun('core') / perRun('raw')).toFixed(2)}); wall time is mostly waiting on the server`,
      }),
      judge({
        id: 'calls-ws-1000',
        title: `${CALLS.toLocaleString('en-US')} sequential tools/call (echo) through the web-mode WebSocket bridge`,
        unit: 'ms',
        target: { kind: 'report' },
        raw: { stats: summarize(times.rawForWs), work: `Client.callTool echo ×${CALLS}` },
        switchboard: {
          stats: summarize(times.ws),
          work: `createWsApi in a child process → startWebHost → dispatch → runTool → ToolCaller.call (origin person: catalog checks, schema check, core.chat.broker) → McpManager.callServerTool ×${CALLS}`,
        },
        note: `${paired(times.ws, times.rawForWs)}; main-process CPU per run (the host's side; the client is its own process, as a browser is): ${perRun('ws').toFixed(0)} ms vs raw SDK ${perRun('rawForWs').toFixed(0)} ms; the invoke is the tools panel's Run, which takes the chat's path (catalog, approval policy, call, result mapping); held to its floor in the next row`,
      }),
      judge({
        id: 'calls-ws-floor-1000',
        title: `${CALLS.toLocaleString('en-US')} sequential tools/call (echo): web-mode bridge vs its physical floor`,
        unit: 'ms',
        target: { kind: 'ratio', max: 1.15 },
        raw: {
          stats: summarize(times.floor),
          work: `the same two processes: a bare WebSocket round trip carrying the bridge's invoke (JSON in, read; the result back in the bridge's envelope) + the core's own SDK Client.callTool of the tool it names, to the same server process ×${CALLS}`,
        },
        switchboard: { stats: summarize(times.wsForFloor), work: `the bridge as in the row above ×${CALLS}` },
        note: `${paired(times.wsForFloor, times.floor)}; main-process CPU per run: bridge ${perRun('wsForFloor').toFixed(0)} ms, floor ${perRun('floor').toFixed(0)} ms (ratio ${(perRun('wsForFloor') / perRun('floor')).toFixed(2)}); browser-side process CPU per run: bridge ${perRun('wsForFloorBrowser').toFixed(0)} ms, floor ${perRun('floorBrowser').toFixed(0)} ms`,
      }),
      judge({
        id: 'calls-ws-bare-floor-1000',
        title: `${CALLS.toLocaleString('en-US')} sequential tools/call (echo): web-mode bridge vs a bare floor that carries no call`,
        unit: 'ms',
        target: { kind: 'report' },
        raw: { stats: summarize(times.bareFloor), work: `the same two processes: a WebSocket round trip of a counter (nothing read) + Client.callTool of a fixed echo, answered with the bare result ×${CALLS}` },
        switchboard: { stats: summarize(times.wsForBare), work: `the bridge as in the row above ×${CALLS}` },
        note: `${paired(times.wsForBare, times.bareFloor)}; the judged floor until 2026-11-26; main-process CPU per run: bridge ${perRun('wsForBare').toFixed(0)} ms, bare floor ${perRun('bareFloor').toFixed(0)} ms`,
      }),
    ];
  } finally {
    if (browserSide && browserSide.exitCode === null) {
      const exited = new Promise((done) => browserSide!.once('exit', done));
      browserSide.send({ stop: true });
      await exited;
    }
    await host?.close();
    await Promise.all(floorServers.map((wss) => new Promise<void>((resolve) => wss.close(() => resolve()))));
    await raw?.close().catch(() => {});
    await running.stop();
  }
}

async function listeningWebSocketServer(): Promise<WebSocketServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  return wss;
}
