import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RemoteServerConfig, ServerConfig, StdioServerConfig } from '../../../src-main/core/config/server-config';
import { McpManager, type McpManagerDeps } from '../../../src-main/core/mcp/mcp-manager';
import type { ServerState } from '../../../src-main/core/mcp/server-state';
import type { Logger } from '../../../src-main/core/ports';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = resolve(here, '../../fixtures/servers');
export const fixture = (file: string) => join(FIXTURES, file);
export const EVERYTHING = resolve(here, '../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM = resolve(here, '../../../node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
export const MEMORY = resolve(here, '../../../node_modules/@modelcontextprotocol/server-memory/dist/index.js');
export const SOURCE = { path: '/home/test/.config/Switchboard/servers.json', origin: 'switchboard' as const, userWritten: true };

export const quietLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };

export function stdio(name: string, args: string[], extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return { kind: 'stdio', name, command: 'node', args, env: {}, enabled: true, timeout: 20, toolTimeout: 20, approval: 'ask', source: SOURCE, ...extra };
}

export function remote(name: string, url: string, extra: Partial<RemoteServerConfig> = {}): RemoteServerConfig {
  return { kind: 'remote', name, url, headers: {}, transport: 'auto', enabled: true, timeout: 20, toolTimeout: 20, approval: 'ask', source: SOURCE, ...extra };
}

export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'switchboard-mcp-'));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

export function manager(home: string, deps: Partial<McpManagerDeps> = {}): McpManager {
  return new McpManager({ home, logger: quietLogger, loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500, ...deps });
}

/** Wait until `name` reaches a state that passes `accept` (checked on every change). */
export async function waitForState(m: McpManager, name: string, accept: (s: ServerState) => boolean, timeoutMs = 20_000): Promise<ServerState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = m.status(name)?.state;
    if (state && accept(state)) return state;
    if (Date.now() > deadline) throw new Error(`server ${name} never reached the wanted state; last: ${JSON.stringify(state)}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

export const is = (kind: ServerState['kind']) => (s: ServerState) => s.kind === kind;

export function applyAll(m: McpManager, configs: ServerConfig[]) {
  return m.apply(configs);
}

/** server-everything over HTTP on a free port, shared with the soak. */
export { freePort, startEverything, stopChild } from '../../fixtures/servers/everything-http';

/** The manager's call by a namespaced name; the one call path (ToolCaller) adds enabled, visibility, schema and approval on top. */
export async function callByName(mgr: McpManager, qualifiedName: string, args: Record<string, unknown>, options?: Parameters<McpManager['callServerTool']>[3]) {
  const tool = await mgr.resolveTool({ qualifiedName });
  return mgr.callServerTool(tool.server, tool.name, args, options);
}
