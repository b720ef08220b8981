/**
 * One connection attempt to a server and, if it opens, that connection's life: trust, expansion,
 * transport, client, lists, ping. It reports upward through its events and never looks at the server
 * that made it; once disposed, every callback it set (the client's close, notifications, the ping, a
 * list still loading) is inert, so nothing from an old connection reaches the server. Its sequence
 * number tells connections apart in call traces ("connection N").
 */
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
import type { CallRoute } from '../../../src-preload/contract/traces';
import type { RemoteServerConfig, ServerConfig } from '../config/server-config';
import { callRoute } from './call-route';
import { describeExit, explainFailure, trustRequiredReason, type Failure } from './failure-reason';
import { StartWatch, withInstallProgress } from './first-run';
import type { LineRing } from './line-ring';
import type { LoginPathSource } from './login-path';
import { schemaValidator } from './schema-validator';
import type { ServerState } from './server-state';
import { fetchPrompts, fetchResources, fetchTools, type ListName } from './server-lists';
import type { DenialWatch } from '../sandbox/sandbox-denial';
import { SandboxedTransport } from '../sandbox/sandboxed-transport';
import { prepareStdio } from './stdio-launch';
import type { StdioProcessTransport } from './stdio-transport';

export type ExpandResult = { ok: true; config: ServerConfig; warnings: string[] } | { ok: false; message: string };

/** Timers a connection uses for backoff and pings; injectable so tests can run the clock. */
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

/** What every session of every server shares (the manager's deps, resolved). */
export interface SessionDeps {
  scheduler: Scheduler;
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
}

/** How a connection ended without being asked to: a drop to retry, or a state that waits for the person. */
export type SessionEnd = { kind: 'dropped'; reason: string } | { kind: 'stopped'; state: ServerState };

/** What a session tells its server; none of these is called once the session is disposed. */
export interface SessionEvents {
  /** The attempt moved on (connecting, with what it starts) or stopped short (trust_required, error, connected). */
  state(state: ServerState): void;
  /** Opening failed; the server decides between showing it and retrying (once `stopped`: the process is gone). */
  failed(failure: Failure, stopped: Promise<void>): void;
  /** The client is open: calls waiting for it may go on. */
  opened(): void;
  /** A list arrived (on connect, or after list_changed). */
  listed(list: ListName, items: Tool[] | Resource[] | Prompt[]): void;
  /** The log or a list changed. */
  changed(): void;
  resourceUpdated(uri: string): void;
  closed(end: SessionEnd): void;
}

/** Switchboard hosts MCP Apps: servers may attach `ui://` HTML resources to tools (SEP-1865). */
export const MCP_APPS_EXTENSION = { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } };
const CLIENT_INFO = { name: 'switchboard', version: '0.1.0' };
/** A busy server may answer a ping slowly; only silence this long counts as a drop. */
const PING_TIMEOUT_MS = 10_000;
/** How long closing waits for the server to confirm the end of an HTTP session. */
const END_SESSION_WAIT_MS = 2000;

interface Opened {
  client: Client;
  transport: Transport;
  kind: TransportKind;
  stdio?: StdioProcessTransport;
}

export class ServerSession {
  private opened: Opened | undefined;
  /** This attempt's process from its spawn on: a start that failed or is still opening is stopped with the session too. */
  private launched: StdioProcessTransport | undefined;
  private disposed = false;
  private pingTimer: unknown;
  private lastRoute: { opened: Opened | undefined; sessionId: string | undefined; route: CallRoute } | undefined;
  private readonly refreshing = new Map<ListName, Promise<void>>();
  /** Lists a refresh is queued for that has not sent its request yet: it will see every change notified until then. */
  private readonly refreshQueued = new Set<ListName>();

  constructor(
    readonly sequence: number,
    /** As configured; the expanded copy (secrets filled in) lives only while the attempt opens. */
    private readonly config: ServerConfig,
    private readonly logs: LineRing,
    private readonly deps: SessionDeps,
    private readonly events: SessionEvents,
  ) {}

  /** The client once open, until disposed. */
  get client(): Client | undefined {
    return this.opened?.client;
  }

  /** A sandboxed server's refusals, for the call path (SECURITY X1); undefined when it runs unsandboxed or remote. */
  get denials(): DenialWatch | undefined {
    const stdio = this.opened?.stdio;
    return stdio instanceof SandboxedTransport ? stdio : undefined;
  }

  get kind(): TransportKind {
    return this.opened?.kind ?? configuredKind(this.config);
  }

  /** The whole attempt: trust, launch gate, expansion, transport, lists, then connected and pinged. */
  async start(): Promise<void> {
    if (this.disposed) return; // replaced while the previous session closed
    const config = this.config;
    // Trust first: an unapproved project server, local or remote, must not even have its secrets read (SECURITY P1).
    // Before the window's launch gate too, so it shows "Needs your approval" at once, not "waiting to start".
    if (!config.source.userWritten) {
      const trusted = this.deps.trust ? await this.deps.trust(config) : false;
      if (this.disposed) return;
      if (!trusted) return this.events.state({ kind: 'trust_required', reason: trustRequiredReason(config) });
    }
    if (this.deps.launchGate) {
      await this.deps.launchGate;
      if (this.disposed) return;
    }
    let expanded = config;
    if (this.deps.expand) {
      const result = await this.deps.expand(config);
      if (this.disposed) return;
      if (!result.ok) return this.events.state({ kind: 'error', reason: result.message });
      for (const warning of result.warnings) this.logs.push(`[switchboard] ${warning}`);
      expanded = result.config;
    }
    this.events.state({ kind: 'connecting', reason: expanded.kind === 'stdio' ? `starting ${expanded.command}` : `connecting to ${expanded.url}` });
    const opened = await this.open(expanded);
    if (!opened) return;
    await Promise.all([this.refreshList(opened.client, 'tools'), this.refreshList(opened.client, 'resources'), this.refreshList(opened.client, 'prompts')]);
    if (this.disposed) return;
    this.events.state({ kind: 'connected', reason: `connected over ${opened.kind === 'http' ? 'streamable HTTP' : opened.kind}` });
    if (opened.kind !== 'stdio') this.schedulePing(opened.client);
  }

  /** A new HTTP session in place of one the server forgot: the transport only, no state shown, the lists kept. */
  async resume(): Promise<Client | undefined> {
    if (this.disposed) return undefined;
    const expanded = this.deps.expand ? await this.deps.expand(this.config) : { ok: true as const, config: this.config, warnings: [] };
    if (this.disposed) return undefined;
    if (!expanded.ok) {
      this.events.state({ kind: 'error', reason: expanded.message });
      return undefined;
    }
    const opened = await this.open(expanded.config);
    if (opened && opened.kind !== 'stdio') this.schedulePing(opened.client);
    return opened?.client;
  }

  /**
   * Where a request goes now — the process, or the endpoint and session — and which connection (call
   * traces). Built once per HTTP session id, not per call: it parses the URL and hashes the session id.
   */
  route(): CallRoute {
    const opened = this.opened;
    const sessionId = opened?.kind === 'http' ? (opened.transport as StreamableHTTPClientTransport).sessionId : undefined;
    const cached = this.lastRoute;
    if (cached !== undefined && cached.opened === opened && cached.sessionId === sessionId) return cached.route;
    const route = callRoute({
      transport: this.kind,
      connection: this.sequence,
      pid: opened?.stdio?.pid,
      ...(this.config.kind === 'remote' ? { url: this.config.url } : {}),
      sessionId,
    });
    this.lastRoute = { opened, sessionId, route };
    return route;
  }

  /** Ends the connection (the HTTP session, the client, the process group); every callback is inert from here. */
  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.pingTimer !== undefined) this.deps.scheduler.clearTimeout(this.pingTimer);
    this.pingTimer = undefined;
    const opened = this.opened;
    this.opened = undefined;
    if (opened?.kind === 'http') await endHttpSession(opened.transport as StreamableHTTPClientTransport);
    await opened?.client.close().catch(() => {});
    // A start that timed out is told at once while its process has its stop grace; stopping waits for it to be gone.
    await this.launched?.close();
  }

  /** Open the transport and client; on failure report it and return undefined. */
  private async open(config: ServerConfig): Promise<Opened | undefined> {
    let stdio: StdioProcessTransport | undefined;
    const timeoutMs = config.timeout * 1000;
    // The timeout counts time without progress; stderr lines are the state's detail while starting (first-run.ts).
    const watch = config.kind === 'stdio' ? new StartWatch({ timeoutMs, pid: () => stdio?.pid, onProgress: (line) => !this.disposed && this.events.state({ kind: 'connecting', reason: `starting ${config.command} · ${line}` }) }) : undefined;
    try {
      let opened: Opened;
      if (config.kind === 'stdio') {
        const prepared = await prepareStdio(withInstallProgress(config), {
          loginPath: this.deps.loginPath,
          maxLineBytes: this.deps.maxLineBytes,
          stopGraceMs: this.deps.stopGraceMs,
          onStderr: (chunk) => (this.logs.write(chunk), watch?.output(chunk)),
          onNoise: (line) => this.logs.push(line),
        });
        if (!prepared.ok) {
          if (!this.disposed) this.events.state({ kind: 'error', reason: prepared.message });
          return undefined;
        }
        stdio = prepared.transport;
        this.launched = stdio;
        const client = this.makeClient();
        await client.connect(stdio, watch!.requestOptions);
        opened = { client, transport: stdio, kind: 'stdio', stdio };
      } else {
        // The HTTP and SSE transports load with the first remote server (transport-errors.ts).
        const { connectRemote, remoteUrlProblem } = await import('./remote-connect');
        const problem = remoteUrlProblem(config.url);
        if (problem) {
          if (!this.disposed) this.events.state({ kind: 'error', reason: problem });
          return undefined;
        }
        const authProvider = this.deps.authProviderFor?.(this.config as RemoteServerConfig);
        opened = await connectRemote(() => this.makeClient(), config, { timeoutMs, ...(authProvider ? { authProvider } : {}) });
      }
      if (this.disposed) {
        await opened.client.close().catch(() => {});
        return undefined;
      }
      this.opened = opened;
      this.watch(opened);
      this.events.opened();
      return opened;
    } catch (error) {
      // The attempt has ended: what the process prints in its stop grace is its log, never again the state
      // (npm's next fetch line turned a start that timed out back into "connecting" for good).
      watch?.dispose();
      // A server that outlived the timeout is still running and gets its stop grace period: the
      // person hears now, not after it. Any other failure is explained once the process is gone (its exit says why).
      const stopped = stdio?.close();
      if (!(error instanceof McpError && error.code === ErrorCode.RequestTimeout)) await stopped;
      if (!this.disposed) {
        // A refusal seen during a start that then failed (npm retrying a download the sandbox refused, until the timeout) is why.
        const fatal = stdio?.fatal ?? (stdio instanceof SandboxedTransport ? stdio.denial : undefined);
        this.events.failed(
          explainFailure(error, {
            phase: 'initialize',
            timeoutMs,
            ...(stdio?.exit ? { exit: stdio.exit } : {}),
            ...(fatal ? { fatal } : {}),
            ...(config.kind === 'remote' ? { url: config.url } : {}),
            stderr: this.logs.snapshot(),
          }),
          Promise.resolve(stopped),
        );
      }
      await stopped;
      return undefined;
    } finally {
      watch?.dispose();
    }
  }

  private makeClient(): Client {
    const setup = this.deps.clientSetup;
    const client = new Client(CLIENT_INFO, { capabilities: { ...setup?.capabilities, roots: { listChanged: true }, extensions: MCP_APPS_EXTENSION }, jsonSchemaValidator: schemaValidator });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.deps.roots() }));
    setup?.register(client, this.config.name);
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refreshSoon(client, 'tools'));
    client.setNotificationHandler(ResourceListChangedNotificationSchema, () => this.refreshSoon(client, 'resources'));
    client.setNotificationHandler(PromptListChangedNotificationSchema, () => this.refreshSoon(client, 'prompts'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      if (!this.disposed) this.events.resourceUpdated(n.params.uri);
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      if (this.disposed) return;
      const data = typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data);
      this.logs.push(`[log ${n.params.level}${n.params.logger ? ` ${n.params.logger}` : ''}] ${data}`);
      this.events.changed();
    });
    return client;
  }

  /** The connection ended without us asking: a crash or a drop. */
  private watch(opened: Opened): void {
    opened.client.onclose = () => {
      // Sweep what a crashed leader left in its process group, whatever happens next.
      void opened.stdio?.close();
      if (this.disposed) return;
      // An attempt still loading lists on this connection must not report it connected.
      this.disposed = true;
      this.opened = undefined;
      const fatal = opened.stdio?.fatal;
      if (fatal) return this.events.closed({ kind: 'stopped', state: { kind: 'error', reason: fatal } });
      const exit = opened.stdio?.exit;
      this.events.closed({ kind: 'dropped', reason: exit ? describeExit(exit) : 'the connection closed' });
    };
  }

  /** A remote server can vanish without closing anything on our side; a failed ping is how we notice. */
  private schedulePing(client: Client): void {
    this.pingTimer = this.deps.scheduler.setTimeout(() => {
      this.pingTimer = undefined;
      if (this.disposed) return;
      client.ping({ timeout: PING_TIMEOUT_MS }).then(
        () => {
          if (!this.disposed) this.schedulePing(client);
        },
        (error: unknown) => {
          if (this.disposed) return;
          const url = this.config.kind === 'remote' ? this.config.url : undefined;
          const cause = explainFailure(error, { phase: 'ping', timeoutMs: PING_TIMEOUT_MS, ...(url ? { url } : {}) });
          void this.dispose();
          this.events.closed(cause.state === 'needs_auth' ? { kind: 'stopped', state: { kind: 'needs_auth', reason: cause.reason } } : { kind: 'dropped', reason: `lost the connection (${cause.reason})` });
        },
      );
    }, this.deps.pingIntervalMs);
  }

  /**
   * A list_changed notification: list again once the refresh under way (if any) is done. A burst of
   * notifications (a server registering tools one by one) is one more list, not one each: every list
   * rebuilds the catalog and its token counts, and the SDK compiles the tools' output schemas anew.
   */
  private refreshSoon(client: Client, list: ListName): void {
    if (this.refreshQueued.has(list)) return;
    this.refreshQueued.add(list);
    const previous = this.refreshing.get(list) ?? Promise.resolve();
    const next = previous
      .then(() => {
        this.refreshQueued.delete(list);
        return this.refreshList(client, list);
      })
      .then(() => {
        if (!this.disposed) this.events.changed();
      });
    this.refreshing.set(list, next.catch(() => {}));
  }

  private async refreshList(client: Client, list: ListName): Promise<void> {
    try {
      const items = list === 'tools' ? await fetchTools(client) : list === 'resources' ? await fetchResources(client) : await fetchPrompts(client);
      if (!this.disposed) this.events.listed(list, items);
    } catch (error) {
      if (!this.disposed) this.logs.push(`[switchboard] ${list}/list failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

export function configuredKind(config: ServerConfig): TransportKind {
  return config.kind === 'stdio' ? 'stdio' : config.transport === 'sse' ? 'sse' : 'http';
}

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
