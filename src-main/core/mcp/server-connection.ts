import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
  type ClientCapabilities,
  type Prompt,
  type Resource,
  type Root,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { TransportKind } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';
import type { RemoteServerConfig, ServerConfig } from '../config/server-config';
import type { Clock, Logger } from '../ports';
import { CrashTracker, formatDuration, type BackoffPolicy } from './backoff';
import { terminal, transient } from '../diagnosis/diagnosis';
import { diagnoseServer, serverFix } from '../diagnosis/server-diagnosis';
import { describeExit, explainFailure, trustRequiredReason, type Failure } from './failure-reason';
import { FirstRunRetry, StartWatch, withInstallProgress } from './first-run';
import { launchHash } from './launch-hash';
import { schemaValidator } from './schema-validator';
import { LineRing } from './line-ring';
import type { ServerState } from './server-state';
import { fetchPrompts, fetchResources, fetchTools, type ListName } from './server-lists';
import type { LoginPathSource } from './login-path';
import { prepareStdio } from './stdio-launch';
import type { StdioProcessTransport } from './stdio-transport';
import type { CallRoute } from '../../../src-preload/contract/traces';
import { callRoute } from '../traces/call-route';

export type ExpandResult = { ok: true; config: ServerConfig; warnings: string[] } | { ok: false; message: string };

/** Timers a connection uses for backoff; injectable so tests can run the clock. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realScheduler: Scheduler = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Extra capabilities and request handlers (elicitation, sampling) put on every Client before it connects. */
export interface ClientSetup {
  capabilities: ClientCapabilities;
  register: (client: Client, server: string) => void;
}

export interface ConnectionDeps {
  logger: Logger;
  clock: Clock;
  scheduler: Scheduler;
  backoff: BackoffPolicy;
  loginPath: LoginPathSource;
  /** Servers wait for this before their first start (McpManagerDeps.launchGate). */
  launchGate?: Promise<unknown>;
  maxLineBytes: number;
  stopGraceMs: number;
  /** How often a connected remote server is pinged, so a dropped one is noticed and reconnected. */
  pingIntervalMs: number;
  expand?: (config: ServerConfig) => Promise<ExpandResult>;
  trust?: (config: ServerConfig) => boolean | Promise<boolean>;
  authProviderFor?: (server: RemoteServerConfig) => OAuthClientProvider | undefined;
  roots: () => Root[];
  clientSetup?: ClientSetup;
  /** State, logs or lists changed. */
  onChange: (connection: ServerConnection) => void;
  onResourceUpdated: (server: string, uri: string) => void;
}

interface Session {
  client: Client;
  transport: Transport;
  kind: TransportKind;
  stdio?: StdioProcessTransport;
}

/** Switchboard hosts MCP Apps: servers may attach `ui://` HTML resources to tools (SEP-1865). */
export const MCP_APPS_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const CLIENT_INFO = { name: 'switchboard', version: '0.1.0' };
/** A busy server may answer a ping slowly; only silence this long counts as a drop. */
const PING_TIMEOUT_MS = 10_000;

/** One configured server: its state machine, its live session, its lists and its log ring. */
export class ServerConnection {
  state: ServerState;
  readonly logs = new LineRing(200);
  /** Last known tools: from the cache until the server answers (live = false), then live. */
  tools: Tool[] = [];
  toolsLive = false;
  private toolNames: { list: Tool[]; names: Set<string> } | undefined;
  resources: Resource[] = [];
  prompts: Prompt[] = [];

  private session: Session | undefined;
  private generation = 0;
  private lastRoute: { session: Session | undefined; generation: number; sessionId: string | undefined; route: CallRoute } | undefined;
  private retryTimer: unknown;
  private pingTimer: unknown;
  private readonly crashes: CrashTracker;
  private readonly firstRun = new FirstRunRetry();
  private readonly settledWaiters = new Set<() => void>();
  private stopped = false;

  constructor(
    public config: ServerConfig,
    private readonly deps: ConnectionDeps,
    cachedTools?: Tool[],
  ) {
    this.state = config.enabled ? { kind: 'connecting', reason: 'waiting to start' } : { kind: 'disabled', reason: disabledReason(config) };
    if (cachedTools) this.tools = cachedTools;
    this.crashes = new CrashTracker(deps.backoff, deps.clock);
  }

  get name(): string {
    return this.config.name;
  }

  get hash(): string {
    return launchHash(this.config);
  }

  get transportKind(): TransportKind {
    if (this.session) return this.session.kind;
    return this.config.kind === 'stdio' ? 'stdio' : this.config.transport === 'sse' ? 'sse' : 'http';
  }

  /** The live client; throws when the server is not connected. */
  get client(): Client {
    if (this.state.kind !== 'connected' || !this.session) throw this.notConnected();
    return this.session.client;
  }

  start(): void {
    void this.connect(false);
  }

  /** By hand: forget past crashes and connect again now. */
  reconnect(): Promise<void> {
    this.crashes.reset();
    this.firstRun.reset();
    return this.connect(false);
  }

  /** Fields that do not change the launch (timeouts, approval, enabled-at-start) follow without a restart. */
  updateConfig(config: ServerConfig): void {
    this.config = config;
  }

  /** Switched off (MCP off as a whole): nothing runs, the state says why. */
  async disable(reason: string): Promise<void> {
    this.generation++;
    this.cancelRetry();
    await this.closeSession();
    this.setState({ kind: 'disabled', reason });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.generation++;
    this.cancelRetry();
    await this.closeSession();
    this.wakeWaiters();
  }

  /**
   * Where a request goes now — the process, or the endpoint and session — and which connection (call
   * traces). Built once per session, not per call: it parses the URL and hashes the session id.
   */
  route(): CallRoute {
    const { session } = this;
    const sessionId = session?.kind === 'http' ? (session.transport as StreamableHTTPClientTransport).sessionId : undefined;
    const cached = this.lastRoute;
    if (cached !== undefined && cached.session === session && cached.generation === this.generation && cached.sessionId === sessionId) return cached.route;
    const route = callRoute({
      transport: this.transportKind,
      generation: this.generation,
      pid: session?.stdio?.pid,
      ...(this.config.kind === 'remote' ? { url: this.config.url } : {}),
      sessionId,
    });
    this.lastRoute = { session, generation: this.generation, sessionId, route };
    return route;
  }

  /** The client when connected right now, without waiting (the call path's fast case). */
  readyClient(): Client | undefined {
    return this.state.kind === 'connected' ? this.session?.client : undefined;
  }

  /** False only when the server's live tool list lacks `name` (a cached list may be out of date). */
  mayHaveTool(name: string): boolean {
    if (!this.toolsLive) return true;
    if (this.toolNames?.list !== this.tools) this.toolNames = { list: this.tools, names: new Set(this.tools.map((t) => t.name)) };
    return this.toolNames.names.has(name);
  }

  /** Wait (within timeoutMs) for a connecting or backing-off server; used by calls to pending tools. */
  async connectedClient(timeoutMs: number): Promise<Client> {
    const deadline = this.deps.clock.now() + timeoutMs;
    for (;;) {
      const ready = this.readyClient();
      if (ready) return ready;
      // "connected" without a session: the session is being replaced (a reconnect, a new HTTP session); wait for it.
      if (this.state.kind !== 'connecting' && this.state.kind !== 'backing_off' && this.state.kind !== 'connected') throw this.notConnected();
      const left = deadline - this.deps.clock.now();
      if (left <= 0) {
        const fix = transient(`try again once it is connected; its state now: ${this.state.reason}`);
        throw new AppFailure('unavailable', `server "${this.name}" did not connect within ${formatDuration(timeoutMs)} (${this.state.kind}: ${this.state.reason})`, fix);
      }
      await this.nextChange(left);
    }
  }

  /** The server forgot our HTTP session (404): open a new one in place, without a visible state change. */
  async reinitialize(): Promise<Client> {
    const generation = ++this.generation;
    await this.closeSession();
    const session = await this.open(this.config, generation);
    if (!session) throw this.notConnected();
    return session.client;
  }

  /** The failure of anything asked of a server that is down, classed and fixed as the servers view shows it. */
  notConnected(): AppFailure {
    const diagnosis = diagnoseServer(this.config, this.state) ?? terminal(serverFix(this.config, this.state) ?? `connect "${this.name}" first`);
    return new AppFailure('unavailable', `server "${this.name}" is not connected (${this.state.kind}: ${this.state.reason})`, diagnosis);
  }

  private nextChange(timeoutMs: number): Promise<void> {
    return new Promise((done) => {
      const finish = () => {
        clearTimeout(timer);
        this.settledWaiters.delete(finish);
        done();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.settledWaiters.add(finish);
    });
  }

  private setState(state: ServerState): void {
    this.state = state;
    if (state.kind === 'connected') this.deps.logger.info(`mcp: ${this.name} connected`);
    else if (state.kind !== 'connecting') this.deps.logger.info(`mcp: ${this.name} ${state.kind}: ${state.reason}`);
    this.wakeWaiters();
    this.deps.onChange(this);
  }

  private wakeWaiters(): void {
    const waiters = [...this.settledWaiters];
    this.settledWaiters.clear();
    for (const wake of waiters) wake();
  }

  private async connect(recovering: boolean): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    this.cancelRetry();
    await this.closeSession();
    if (generation !== this.generation) return;
    if (!this.config.enabled) return this.setState({ kind: 'disabled', reason: disabledReason(this.config) });
    if (this.deps.launchGate) {
      await this.deps.launchGate;
      if (generation !== this.generation) return;
    }

    // Trust first: an unapproved project server, local or remote, must not even have its secrets read (SECURITY P1).
    if (!this.config.source.userWritten) {
      const trusted = this.deps.trust ? await this.deps.trust(this.config) : false;
      if (generation !== this.generation) return;
      if (!trusted) {
        return this.setState({ kind: 'trust_required', reason: trustRequiredReason(this.config) });
      }
    }
    let config = this.config;
    if (this.deps.expand) {
      const expanded = await this.deps.expand(config);
      if (generation !== this.generation) return;
      if (!expanded.ok) return this.setState({ kind: 'error', reason: expanded.message });
      for (const warning of expanded.warnings) this.logs.push(`[switchboard] ${warning}`);
      config = expanded.config;
    }
    this.setState({ kind: 'connecting', reason: config.kind === 'stdio' ? `starting ${config.command}` : `connecting to ${config.url}` });
    const session = await this.open(config, generation, recovering);
    if (!session) return;
    await this.refreshLists(session.client);
    if (generation !== this.generation) return;
    this.setState({ kind: 'connected', reason: `connected over ${session.kind === 'http' ? 'streamable HTTP' : session.kind}` });
    if (session.kind !== 'stdio') this.schedulePing(session, generation);
  }

  /** A remote server can vanish without closing anything on our side; a failed ping is how we notice. */
  private schedulePing(session: Session, generation: number): void {
    this.pingTimer = this.deps.scheduler.setTimeout(() => {
      this.pingTimer = undefined;
      if (generation !== this.generation || this.session !== session) return;
      session.client.ping({ timeout: PING_TIMEOUT_MS }).then(
        () => {
          if (generation === this.generation && this.session === session) this.schedulePing(session, generation);
        },
        (error: unknown) => {
          if (generation !== this.generation || this.session !== session) return;
          const url = this.config.kind === 'remote' ? this.config.url : undefined;
          const cause = explainFailure(error, { phase: 'ping', timeoutMs: PING_TIMEOUT_MS, ...(url ? { url } : {}) });
          if (cause.state === 'needs_auth') {
            this.generation++;
            void this.closeSession();
            return this.setState({ kind: 'needs_auth', reason: cause.reason });
          }
          this.markDropped(`lost the connection (${cause.reason})`);
        },
      );
    }, this.deps.pingIntervalMs);
  }

  /** Open a session; on failure set the state (or schedule a retry) and return undefined. */
  private async open(config: ServerConfig, generation: number, recovering = false): Promise<Session | undefined> {
    let stdio: StdioProcessTransport | undefined;
    const timeoutMs = config.timeout * 1000;
    // The timeout counts time without progress; stderr lines are the state's detail while starting (first-run.ts).
    const watch = config.kind === 'stdio' ? new StartWatch({ timeoutMs, pid: () => stdio?.pid, onProgress: (line) => generation === this.generation && this.state.kind === 'connecting' && this.setState({ kind: 'connecting', reason: `starting ${config.command} · ${line}` }) }) : undefined;
    try {
      let session: Session;
      if (config.kind === 'stdio') {
        const prepared = await prepareStdio(withInstallProgress(config), {
          loginPath: this.deps.loginPath,
          maxLineBytes: this.deps.maxLineBytes,
          stopGraceMs: this.deps.stopGraceMs,
          onStderr: (chunk) => (this.logs.write(chunk), watch?.output(chunk)),
          onNoise: (line) => this.logs.push(line),
        });
        if (!prepared.ok) {
          if (generation === this.generation) this.setState({ kind: 'error', reason: prepared.message });
          return undefined;
        }
        stdio = prepared.transport;
        const client = this.makeClient();
        await client.connect(stdio, watch!.requestOptions);
        session = { client, transport: stdio, kind: 'stdio', stdio };
      } else {
        // The HTTP and SSE transports load with the first remote server (transport-errors.ts).
        const { connectRemote, remoteUrlProblem } = await import('./remote-connect');
        const problem = remoteUrlProblem(config.url);
        if (problem) {
          if (generation === this.generation) this.setState({ kind: 'error', reason: problem });
          return undefined;
        }
        const authProvider = this.deps.authProviderFor?.(this.config as RemoteServerConfig);
        const remote = await connectRemote(() => this.makeClient(), config, { timeoutMs, ...(authProvider ? { authProvider } : {}) });
        session = remote;
      }
      if (generation !== this.generation) {
        await session.client.close().catch(() => {});
        return undefined;
      }
      this.session = session;
      this.watch(session, generation);
      this.wakeWaiters(); // a call waiting out a session swap (reinitialize) goes on now
      return session;
    } catch (error) {
      // A server that outlived the timeout is still running and gets its stop grace period: the
      // person hears now, not after it. Any other failure is explained once the process is gone (its exit says why).
      const stopped = stdio?.close();
      if (!(error instanceof McpError && error.code === ErrorCode.RequestTimeout)) await stopped;
      if (generation === this.generation) {
        const failure = explainFailure(error, {
          phase: 'initialize',
          timeoutMs,
          ...(stdio?.exit ? { exit: stdio.exit } : {}),
          ...(stdio?.fatal ? { fatal: stdio.fatal } : {}),
          ...(config.kind === 'remote' ? { url: config.url } : {}),
          stderr: this.logs.snapshot(),
        });
        if (config.kind === 'stdio' && this.firstRun.shouldRetry(config, failure, recovering, (note) => this.logs.push(note))) void Promise.resolve(stopped).then(() => (generation === this.generation ? this.connect(false) : undefined));
        else this.fail(failure, recovering);
      }
      await stopped;
      return undefined;
    } finally {
      watch?.dispose();
    }
  }

  private fail(failure: Failure, recovering: boolean): void {
    if (recovering && failure.retryable) return this.scheduleRetry(failure.reason);
    this.setState(failure.state === 'error' && failure.stderrTail ? { kind: 'error', reason: failure.reason, stderrTail: failure.stderrTail } : { kind: failure.state, reason: failure.reason });
  }

  private makeClient(): Client {
    const setup = this.deps.clientSetup;
    const client = new Client(CLIENT_INFO, { capabilities: { ...setup?.capabilities, roots: { listChanged: true }, extensions: MCP_APPS_EXTENSION }, jsonSchemaValidator: schemaValidator });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.deps.roots() }));
    setup?.register(client, this.name);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refreshSoon(client, 'tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.refreshSoon(client, 'resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.refreshSoon(client, 'prompts'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => this.deps.onResourceUpdated(this.name, n.params.uri));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      this.logs.push(`[log ${n.params.level}${n.params.logger ? ` ${n.params.logger}` : ''}] ${data}`);
      this.deps.onChange(this);
    });
    return client;
  }

  /** A connected session ended without us asking: a crash or a drop. */
  private watch(session: Session, generation: number): void {
    session.client.onclose = () => {
      // Sweep what a crashed leader left in its process group, whatever happens next.
      void session.stdio?.close();
      if (generation !== this.generation || this.stopped) return;
      this.generation++; // a connect still refreshing lists on this session must not report it connected
      this.session = undefined;
      const fatal = session.stdio?.fatal;
      if (fatal) return this.setState({ kind: 'error', reason: fatal });
      const exit = session.stdio?.exit;
      this.scheduleRetry(exit ? describeExit(exit) : 'the connection closed');
    };
  }

  /** A dropped remote server is noticed when a request fails on the network; treat it like a crash. */
  markDropped(reason: string): void {
    if (this.state.kind !== 'connected') return;
    this.generation++;
    this.cancelRetry();
    void this.closeSession();
    this.scheduleRetry(reason);
  }

  private scheduleRetry(reason: string): void {
    const decision = this.crashes.recordCrash({ giveUp: this.config.kind === 'stdio' });
    if (decision.kind === 'give_up') return this.setState({ kind: 'error', reason: `${decision.reason} (last: ${reason})` });
    const nextAttemptAt = this.deps.clock.now() + decision.delayMs;
    this.setState({ kind: 'backing_off', reason: `${reason}; retrying in ${formatDuration(decision.delayMs)}`, nextAttemptAt });
    this.retryTimer = this.deps.scheduler.setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect(true);
    }, decision.delayMs);
  }

  private cancelRetry(): void {
    if (this.retryTimer !== undefined) this.deps.scheduler.clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.pingTimer !== undefined) this.deps.scheduler.clearTimeout(this.pingTimer);
    this.pingTimer = undefined;
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    session.client.onclose = undefined;
    if (session.kind === 'http') await endHttpSession(session.transport as StreamableHTTPClientTransport);
    await session.client.close().catch(() => {});
    if (session.stdio) await session.stdio.close();
  }

  private readonly refreshing = new Map<string, Promise<void>>();
  /** The client a refresh is queued for that has not sent its request yet: it will see every change notified until then. */
  private readonly refreshQueued = new Map<ListName, Client>();

  /**
   * A list_changed notification: list again once the refresh under way (if any) is done. A burst of
   * notifications (a server registering tools one by one) is one more list, not one each: every list
   * rebuilds the catalog and its token counts, and the SDK compiles the tools' output schemas anew.
   */
  private refreshSoon(client: Client, list: ListName): void {
    if (this.refreshQueued.get(list) === client) return;
    this.refreshQueued.set(list, client);
    const previous = this.refreshing.get(list) ?? Promise.resolve();
    const next = previous
      .then(() => {
        if (this.refreshQueued.get(list) === client) this.refreshQueued.delete(list);
        return this.refreshList(client, list);
      })
      .then(() => this.deps.onChange(this));
    this.refreshing.set(list, next.catch(() => {}));
  }

  private async refreshLists(client: Client): Promise<void> {
    await Promise.all([this.refreshList(client, 'tools'), this.refreshList(client, 'resources'), this.refreshList(client, 'prompts')]);
  }

  private async refreshList(client: Client, list: ListName): Promise<void> {
    try {
      if (list === 'tools') {
        this.tools = await fetchTools(client);
        this.toolsLive = true;
      } else if (list === 'resources') this.resources = await fetchResources(client);
      else this.prompts = await fetchPrompts(client);
    } catch (error) {
      this.logs.push(`[switchboard] ${list}/list failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** How long closing waits for the server to confirm the end of an HTTP session. */
const END_SESSION_WAIT_MS = 2000;

/**
 * Tell a streamable HTTP server we are done with our session (DELETE, SECURITY T1), so it does not
 * hold it until it expires. A server that is gone or slow does not hold up the close: closing the
 * client right after aborts the request.
 */
async function endHttpSession(transport: StreamableHTTPClientTransport): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([transport.terminateSession().catch(() => {}), new Promise<void>((done) => (timer = setTimeout(done, END_SESSION_WAIT_MS)))]);
  clearTimeout(timer);
}

function disabledReason(config: ServerConfig): string {
  return `disabled in ${config.source.path}`;
}

