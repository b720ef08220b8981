// Run by lazy-transports.test.ts in a child process: starts a SwitchboardCore whose servers.json has
// one stdio server, waits for it, and prints every module URL this process loaded (ESM and CommonJS)
// and every module of Node's own it loaded.
// Nothing here needs a secret.
import { createRequire, register } from 'node:module';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';

const loaded = new Set<string>();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url: string) => loaded.add(url));
port1.unref();
// The hooks run on their own thread; they post each URL they load here.
const hooks = `export async function initialize(port) { globalThis.port = port; }
export async function load(url, context, next) { globalThis.port.postMessage(url); return next(url, context); }`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: port2, transferList: [port2] });

const { SwitchboardCore } = await import('../../../src-main/core/switchboard-core');
const { KeytarVault } = await import('../../../src-main/core/secrets/keytar-vault');
const home = await mkdtemp(join(tmpdir(), 'switchboard-loaded-'));
await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { box: { command: process.execPath, args: [process.argv[2]!, '--name', 'box'] } } }));
// The real vault, as the shells make it: no secret is asked for here, so its native addon must not load.
const core = new SwitchboardCore({ home, vault: new KeytarVault('switchboard-test-unused'), opener: { open: async () => {} }, logger: { info: () => {}, warn: () => {}, error: () => {} } });
await core.start();
await core.mcp.settled(30_000);
core.snapshot();
await core.chat.loading.ready();
const states = core.mcp.statuses().map((s) => s.state.kind);
await core.stop();
await rm(home, { recursive: true, force: true });
await new Promise((done) => setTimeout(done, 50));
const required = Object.keys(createRequire(import.meta.url).cache);
// moduleLoadList is Node's own record of its built-in modules, untyped in @types/node.
const { moduleLoadList } = process as unknown as { moduleLoadList: string[] };
const builtins = moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `node:${m.slice('NativeModule '.length)}`);
process.stdout.write(JSON.stringify({ states, modules: [...loaded, ...required], builtins }));
process.exit(0);
