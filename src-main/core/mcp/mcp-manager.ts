import type { GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Root, Tool } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { basename } from 'node:path';
import type { TransportKind } from '../../../src-preload/contract';
import type { ToolRef } from '../../../src-preload/contract/tools';
import { AppFailure } from '../app-error';
import type { ServerConfig } from '../config/server-config';
import { systemClock, type Logger } from '../ports';
import { DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { misuse } from '../diagnosis/diagnosis';
import { memoLast } from '../memo-last';
import { DEFAULT_TEXT_CAP, type ToolResult } from './call-result';
import { launchHash } from './launch-hash';
import { loginShellPath } from './login-path';
import { McpServer, noSuchTool, type McpServerDeps } from './mcp-server';
import { realScheduler } from './server-session';
import type { ServerState } from './server-state';
import { DEFAULT_MAX_LINE_BYTES } from './stdio-transport';
import { buildCatalog, type Catalog, type CatalogTool } from './tool-catalog';
import { LogNotices } from './log-notices';
import { ToolCache } from './tool-cache';
import { ToolSettings } from './tool-settings';
import type { ToolBudget } from '../../../src-preload/contract/tool-budget';
import type { CallOptions, WireSteps } from './call-vocabulary';

/** The servers' deps, each optional with a default (McpServerDeps and SessionDeps say what each is for). */
export interface McpManagerDeps extends Partial<Omit<McpServerDeps, 'logger' | 'backoff' | 'roots' | 'onChange' | 'onResourceUpdated' | 'onLogGrew'>> {
  /** Data home: tool cache and per-tool settings live here. */
  home: string;
  logger: Logger;
  backoff?: Partial<BackoffPolicy>;
}

/** What the snapshot needs of one server. */
export interface ServerStatus {
  name: string;
  config: ServerConfig;
  state: ServerState;
  transport: TransportKind;
  toolCount: number;
  pendingTools: boolean;
  /** A sandbox refusal a call met while the server kept running (SECURITY X1). */
  sandboxDenial?: string;
  /** A failed local server's last stderr lines (McpServer.stderrTail). */
  stderrTail?: string[];
}

const COALESCE_MS = 15;

/**
 * The fleet: every configured server (an McpServer each), the config diff applied to them, the tool
 * catalog built from them and its lookups, the roots they are told, and the listeners. One server's
 * failure never touches another.
 */
export class McpManager {
  private readonly servers = new Map<string, McpServer>();
  private readonly cache: ToolCache;
  readonly settings: ToolSettings;
  /** Which servers' logs grew (the Logs tab follows them). */
  readonly logNotices = new LogNotices();
  private settingsLoaded: Promise<void> | undefined;
  private readonly listeners = new Set<() => void>();
  private readonly resourceListeners = new Set<(server: string, uri: string) => void>();
  private readonly cachedToolsWritten = new WeakMap<McpServer, Tool[]>();
  /** Built on first read after a change (changed() drops it). */
  private catalogMemo: Catalog | undefined;
  /** The catalog's tools by name: the tool-call path looks one up on every call. */
  private readonly toolsByName = memoLast((catalog: Catalog) => new Map(catalog.tools.map((t) => [t.qualifiedName, t])));
  private readonly toolsByServer = memoLast((catalog: Catalog) => new Map(catalog.tools.map((t) => [`${t.server}\0${t.name}`, t])));
  private flushTimer: NodeJS.Timeout | undefined;
  private rootList: Root[] = [];
  private mcpDisabled = false;
  private applying: Promise<void> = Promise.resolve();

  constructor(private readonly deps: McpManagerDeps) {
    this.cache = new ToolCache(deps.home);
    this.settings = new ToolSettings(deps.home);
  }

  /**
   * Make the running set match the config: unchanged servers keep running, servers whose
   * launch hash changed restart, removed ones stop, added ones start. Returns once every
   * change is under way (connections finish in the background; watch onChange).
   */
  apply(configs: ServerConfig[], options: { mcpDisabled?: boolean } = {}): Promise<void> {
    // One apply at a time: a file-watch burst must not interleave two diffs.
    const next = this.applying.catch(() => {}).then(() => this.applyNow(configs, options));
    this.applying = next;
    return next;
  }

  private async applyNow(configs: ServerConfig[], options: { mcpDisabled?: boolean }): Promise<void> {
    this.settingsLoaded ??= this.settings.load();
    await this.settingsLoaded;
    const wasDisabled = this.mcpDisabled;
    this.mcpDisabled = options.mcpDisabled ?? false;
    const wanted = new Map(configs.map((c) => [c.name, c]));
    const stopping: Promise<void>[] = [];
    for (const [name, mcpServer] of this.servers) {
      const next = wanted.get(name);
      if (!next || launchHash(next) !== mcpServer.hash) {
        this.servers.delete(name);
        stopping.push(mcpServer.stop());
      }
    }
    await Promise.all(stopping);
    const added: McpServer[] = [];
    for (const config of configs) {
      const existing = this.servers.get(config.name);
      if (!existing) continue;
      const enabledChanged = existing.config.enabled !== config.enabled;
      existing.updateConfig(config);
      if (this.mcpDisabled) {
        if (!wasDisabled) void existing.disable(this.offReason(config));
      } else if (enabledChanged || wasDisabled) void existing.reconnect();
    }
    // Fast start: every cached catalog is read (in parallel) and published before any server
    // spawns, so the catalog is whole at once instead of racing the servers' start-up for CPU.
    const fresh = configs.filter((c) => !this.servers.has(c.name));
    const cached = await Promise.all(fresh.map((c) => (c.enabled ? this.cache.read(launchHash(c)) : undefined)));
    fresh.forEach((config, i) => {
      const server = new McpServer(config, this.serverDeps(), cached[i]);
      this.servers.set(config.name, server);
      added.push(server);
    });
    this.changed();
    for (const mcpServer of added) {
      if (this.mcpDisabled) void mcpServer.disable(this.offReason(mcpServer.config));
      else mcpServer.start();
    }
  }

  private offReason(config: ServerConfig): string {
    return `MCP is switched off in ${config.source.path}`;
  }

  private serverDeps(): McpServerDeps {
    const { home: _home, ...deps } = this.deps;
    return {
      ...deps,
      clock: deps.clock ?? systemClock,
      scheduler: deps.scheduler ?? realScheduler,
      backoff: { ...DEFAULT_BACKOFF, ...deps.backoff },
      loginPath: deps.loginPath ?? loginShellPath,
      maxLineBytes: deps.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      stopGraceMs: deps.stopGraceMs ?? 2000,
      pingIntervalMs: deps.pingIntervalMs ?? 30_000,
      textCap: deps.textCap ?? DEFAULT_TEXT_CAP,
      roots: () => this.rootList,
      onChange: (server) => this.serverChanged(server),
      onLogGrew: (server) => this.logNotices.grew(server),
      onResourceUpdated: (server, uri) => {
        for (const listener of this.resourceListeners) listener(server, uri);
      },
    };
  }

  private serverChanged(mcpServer: McpServer): void {
    if (this.servers.get(mcpServer.name) !== mcpServer) return; // a replaced server winding down
    if (mcpServer.toolsLive && this.cachedToolsWritten.get(mcpServer) !== mcpServer.tools) {
      this.cachedToolsWritten.set(mcpServer, mcpServer.tools);
      this.cache.write(mcpServer.hash, mcpServer.tools).catch((error: unknown) => {
        this.deps.logger.warn(`mcp: could not write the tool cache for ${mcpServer.name}`, { error: String(error) });
      });
    }
    this.changed();
  }

  /** Listeners hear about any state, list or log change, coalesced into one call per burst. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onResourceUpdated(listener: (server: string, uri: string) => void): () => void {
    this.resourceListeners.add(listener);
    return () => this.resourceListeners.delete(listener);
  }

  private changed(): void {
    this.catalogMemo = undefined;
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      for (const listener of this.listeners) listener();
    }, COALESCE_MS);
  }

  statuses(): ServerStatus[] {
    const counts = new Map<string, number>();
    for (const tool of this.catalog().tools) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
    return [...this.servers.values()].map((c) => statusOf(c, counts.get(c.name) ?? 0));
  }

  status(name: string): ServerStatus | undefined {
    const mcpServer = this.servers.get(name);
    return mcpServer && statusOf(mcpServer, this.catalog().tools.filter((t) => t.server === name).length);
  }

  /** A server's configuration, without building its status (read on every tool call). */
  serverConfig(name: string): ServerConfig | undefined {
    return this.servers.get(name)?.config;
  }

  logs(name: string): string[] {
    return this.require(name).logs.snapshot();
  }

  /** Resolves once no server is still connecting (or after timeoutMs): for the CLI and tests. */
  async settled(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ([...this.servers.values()].some((c) => c.state.kind === 'connecting') && Date.now() < deadline) {
      await new Promise<void>((done) => {
        const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
        const off = this.onChange(finish);
        function finish() {
          clearTimeout(timer);
          off();
          done();
        }
      });
    }
  }

  async reconnect(name: string): Promise<void> {
    if (this.mcpDisabled) throw new AppFailure('conflict', 'MCP is switched off; switch it on to connect servers');
    await this.require(name).reconnect();
  }

  async reconnectAll(): Promise<void> {
    if (this.mcpDisabled) throw new AppFailure('conflict', 'MCP is switched off; switch it on to connect servers');
    await Promise.all([...this.servers.values()].map((c) => c.reconnect()));
  }

  /** Stop every server and its process group; nothing is left running. */
  async stop(): Promise<void> {
    const all = [...this.servers.values()];
    this.servers.clear();
    await Promise.all(all.map((c) => c.stop()));
    await this.cache.settle();
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  // ---- tools ----

  catalog(): Catalog {
    this.catalogMemo ??= buildCatalog(
      [...this.servers.values()]
        // A starting or reconnecting server keeps its last known tools, marked pending: a call waits for it.
        .filter((c) => c.state.kind === 'connected' || c.state.kind === 'connecting' || c.state.kind === 'backing_off')
        .map((c) => ({ server: c.name, ...(c.config.prefix ? { prefix: c.config.prefix } : {}), tools: c.tools, pending: c.state.kind !== 'connected' })),
      (server, tool) => this.settings.isEnabled(server, tool),
    );
    return this.catalogMemo;
  }

  tools(server?: string): CatalogTool[] {
    if (server !== undefined) this.require(server);
    const all = this.catalog().tools;
    return server === undefined ? all : all.filter((t) => t.server === server);
  }

  async setToolEnabled(qualifiedName: string, enabled: boolean): Promise<void> {
    const tool = this.lookupTool(qualifiedName);
    if (!tool) throw new AppFailure('not_found', `no tool named "${qualifiedName}"`);
    await this.settings.set(tool.server, tool.name, enabled);
    this.changed();
  }

  /** Always load this tool for the model when tools load on demand. */
  async setToolPinned(qualifiedName: string, pinned: boolean): Promise<void> {
    const tool = this.lookupTool(qualifiedName);
    if (!tool) throw new AppFailure('not_found', `no tool named "${qualifiedName}"`);
    await this.settings.setToolPinned(tool.server, tool.name, pinned);
    this.changed();
  }

  /** Always load every tool of this server for the model when tools load on demand. */
  async setServerPinned(name: string, pinned: boolean): Promise<void> {
    this.require(name);
    await this.settings.setServerPinned(name, pinned);
    this.changed();
  }

  async setToolBudget(budget: ToolBudget): Promise<void> {
    await this.settings.setBudget(budget);
    this.changed();
  }

  private lookupTool(qualifiedName: string): CatalogTool | undefined {
    return this.toolsByName(this.catalog()).get(qualifiedName);
  }

  /** A server's tool by the server's own name for it (what the tools panel shows). */
  serverTool(server: string, tool: string): CatalogTool | undefined {
    return this.toolsByServer(this.catalog()).get(`${server}\0${tool}`);
  }

  /** The catalog entry a reference names, if the catalog has it now (resolveTool waits for servers still starting). */
  findTool(ref: ToolRef): CatalogTool | undefined {
    return 'qualifiedName' in ref ? this.lookupTool(ref.qualifiedName) : this.serverTool(ref.server, ref.tool);
  }

  /** The catalog entry a reference names, waiting for servers still starting with no cached list; exact errors otherwise. */
  async resolveTool(ref: ToolRef): Promise<CatalogTool> {
    const found = this.findTool(ref);
    if (found) return found;
    const candidates = 'qualifiedName' in ref ? [...this.servers.values()] : [this.require(ref.server)];
    const starting = candidates.filter((c) => !c.toolsLive && (c.state.kind === 'connecting' || c.state.kind === 'backing_off'));
    await Promise.all(starting.map((c) => c.connectedClient(c.config.timeout * 1000).catch(() => undefined)));
    const late = this.findTool(ref);
    if (late) return late;
    if ('qualifiedName' in ref) throw new AppFailure('not_found', `no tool named "${ref.qualifiedName}"`, misuse('call only the tools you were given (switchboard tools lists them)'));
    const mcpServer = this.require(ref.server);
    if (mcpServer.state.kind !== 'connected') throw mcpServer.notConnected();
    throw noSuchTool(ref.server, ref.tool);
  }

  /** Call a server's tool by its own name: the server runs it (McpServer.callTool). */
  callServerTool(server: string, tool: string, args: Record<string, unknown>, options: CallOptions = {}, trace?: WireSteps): Promise<ToolResult> {
    return this.require(server).callTool(tool, args, options, trace);
  }

  // ---- resources and prompts ----

  resources(server: string): Resource[] {
    return this.require(server).resources;
  }

  async listResourceTemplates(server: string): Promise<ResourceTemplate[]> {
    const client = await this.clientFor(server);
    if (!client.getServerCapabilities()?.resources) return [];
    return (await client.listResourceTemplates()).resourceTemplates;
  }

  async readResource(server: string, uri: string): Promise<ReadResourceResult> {
    const client = await this.clientFor(server);
    return client.readResource({ uri });
  }

  async subscribeResource(server: string, uri: string): Promise<void> {
    const client = await this.clientFor(server);
    if (!client.getServerCapabilities()?.resources?.subscribe) throw new AppFailure('conflict', `server "${server}" does not offer resource subscriptions`);
    await client.subscribeResource({ uri });
  }

  async unsubscribeResource(server: string, uri: string): Promise<void> {
    const client = await this.clientFor(server);
    await client.unsubscribeResource({ uri });
  }

  prompts(server?: string): { server: string; prompt: Prompt }[] {
    const servers = server === undefined ? [...this.servers.values()] : [this.require(server)];
    return servers.filter((c) => c.state.kind === 'connected').flatMap((c) => c.prompts.map((prompt) => ({ server: c.name, prompt })));
  }

  async getPrompt(server: string, name: string, args: Record<string, string> = {}): Promise<GetPromptResult> {
    const client = await this.clientFor(server);
    return client.getPrompt({ name, arguments: args });
  }

  private async clientFor(server: string) {
    const mcpServer = this.require(server);
    return mcpServer.connectedClient(mcpServer.config.timeout * 1000);
  }

  // ---- roots ----

  /** The folders the user picked, served to servers that ask (roots/list); servers are told when they change. */
  setRoots(folders: string[]): void {
    this.rootList = folders.map((folder) => ({ uri: pathToFileURL(folder).href, name: basename(folder) || folder }));
    for (const mcpServer of this.servers.values()) {
      mcpServer.readyClient()?.sendRootsListChanged().catch(() => {});
    }
  }

  private require(name: string): McpServer {
    const mcpServer = this.servers.get(name);
    if (!mcpServer) throw new AppFailure('not_found', `no server named "${name}"`, misuse('use a server name from the servers list (switchboard status)'));
    return mcpServer;
  }
}

function statusOf(c: McpServer, toolCount: number): ServerStatus {
  const stderr = c.stderrTail;
  return {
    name: c.name,
    config: c.config,
    state: c.state,
    transport: c.transportKind,
    toolCount,
    pendingTools: (c.state.kind === 'connecting' || c.state.kind === 'backing_off') && c.tools.length > 0,
    ...(c.sandboxDenial ? { sandboxDenial: c.sandboxDenial } : {}),
    ...(stderr ? { stderrTail: stderr } : {}),
  };
}
