// Child process for the WebSocket bridge figure: the browser's side of web mode, in its own
// process as a browser would be. The parent sends { url, origin, server, tool, args, expect } once,
// then { run: n } for each block; the child times n sequential runTool invokes (the tools panel's
// Run) and replies { ms }. For the bridge's physical floors the parent sends { floor: { name, url,
// expect, carries } } once for each, then { runFloor: n, name }: n sequential round trips on a bare
// WebSocket to a parent that answers each with a raw SDK callTool. A floor that `carries` the call
// sends the invoke the bridge sends (server, tool, arguments) and reads the answer in the bridge's
// envelope; the other sends a counter and gets the bare result.
import WebSocket from 'ws';
import type { WsApi } from '../../src-renderer/lib/api/ws-client';
import { createWsApi } from '../lib/shipped-ws-client';

interface Setup {
  url: string;
  origin: string;
  server: string;
  tool: string;
  args: Record<string, unknown>;
  /** The text the tool's first content part must hold. */
  expect: string;
}

interface Floor {
  socket: WebSocket;
  expect: string;
  carries: boolean;
}

let bridge: WsApi | undefined;
let setup: Setup | undefined;
const floors = new Map<string, Floor>();

async function runFloorBlock(count: number, name: string): Promise<number> {
  const floor = floors.get(name);
  if (!floor || !setup) throw new Error(`ws-client-probe: runFloor before floor "${name}" and setup`);
  const { socket, expect, carries } = floor;
  const { server, tool, args } = setup;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const reply = await new Promise<string>((resolve) => {
      socket.once('message', (data) => resolve(String(data)));
      socket.send(JSON.stringify(carries ? { type: 'invoke', id: i, method: 'runTool', payload: { server, tool, args } } : { i }));
    });
    const parsed = JSON.parse(reply) as { content?: { text?: string }[]; result?: { value?: { content?: { text?: string }[] } } };
    const first = (carries ? parsed.result?.value : parsed)?.content?.[0];
    if (first?.text !== expect) throw new Error(`the bare WebSocket round trip returned ${reply}`);
  }
  return performance.now() - started;
}

async function runBlock(count: number): Promise<number> {
  if (!bridge || !setup) throw new Error('ws-client-probe: run before setup');
  const { api } = bridge;
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const result = await api.runTool({ server: setup.server, tool: setup.tool, args: setup.args });
    if (!result.ok) throw new Error(`runTool over the WebSocket failed: ${result.error.message}`);
    const first = result.value.content[0];
    if (first?.type !== 'text' || first.text !== setup.expect) throw new Error(`runTool over the WebSocket returned ${JSON.stringify(result.value.content)}`);
  }
  return performance.now() - started;
}

/** This process's CPU (user + system, ms) since `start`: the browser side's share of a block. */
function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

process.on('message', (message: { setup?: Setup; run?: number; floor?: { name: string; url: string; expect: string; carries: boolean }; runFloor?: number; name?: string; stop?: true }) => {
  const reply = (body: object) => process.send?.(body);
  if (message.floor) {
    const socket = new WebSocket(message.floor.url);
    floors.set(message.floor.name, { socket, expect: message.floor.expect, carries: message.floor.carries });
    socket.once('open', () => reply({ ready: true }));
    socket.once('error', (error) => reply({ error: error.message }));
  } else if (message.runFloor !== undefined) {
    const cpu = process.cpuUsage();
    runFloorBlock(message.runFloor, message.name ?? '').then(
      (ms) => reply({ ms, cpuMs: cpuMs(cpu) }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  } else if (message.setup) {
    setup = message.setup;
    const origin = setup.origin;
    // Node's ws sends no Origin unless told; the host requires one (SECURITY T2), as a browser sends it.
    class BrowserLikeSocket extends WebSocket {
      constructor(url: string) {
        super(url, { origin });
      }
    }
    bridge = createWsApi({ url: setup.url, WebSocket: BrowserLikeSocket as unknown as typeof globalThis.WebSocket });
    reply({ ready: true });
  } else if (message.run !== undefined) {
    const cpu = process.cpuUsage();
    runBlock(message.run).then(
      (ms) => reply({ ms, cpuMs: cpuMs(cpu) }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  } else if (message.stop) {
    bridge?.close();
    for (const floor of floors.values()) floor.socket.close();
    process.exit(0);
  }
});
