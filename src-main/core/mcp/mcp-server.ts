/**
 * One configured server for as long as it is configured: its config, its state, its last known lists,
 * its log and its retries. It owns its calls and its client: each connection is a ServerSession it
 * starts, hears from by events and disposes as a whole, so nothing here has to ask which connection a
 * callback came from.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type Prompt, type Resource, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { TransportKind } from '../../../src-preload/contract';
import type { CallRoute } from '../../../src-preload/contract/traces';
import { AppFailure } from '../app-error';
import type { ServerConfig } from '../config/server-config';
import { callFailure, isHardMaxTimeout } from '../diagnosis/call-diagnosis';
import { misuse, terminal, transient } from '../diagnosis/diagnosis';
import { diagnoseServer, serverFix } from '../diagnosis/server-diagnosis';
import type { Clock, Logger } from '../ports';
import { CrashTracker, formatDuration, type BackoffPolicy } from './backoff';
import { CallCancel, requestSignal } from './call-cancel';
import { capCallResult, type ToolResult } from './call-result';
import { callRoute } from './call-route';
import type { CallOptions, WireSteps } from './call-vocabulary';
import { stderrTail, type Failure } from './failure-reason';
import { FirstRunRetry } from './first-run';
import { launchHash } from './launch-hash';
import { LineRing } from './line-ring';
import { memoLast } from '../memo-last';
import type { ListName } from './server-lists';
import { configuredKind, ServerSession, type SessionDeps, type SessionEnd, type SessionEvents } from './server-session';
import type { ServerState } from './server-state';
import { callToolAsTask, runsAsTask } from './task-call';
import { isSessionExpired } from './transport-errors';
import { failedResultText, withDenial } from '../sandbox/sandbox-denial';

export interface McpServerDeps extends SessionDeps {
  logger: Logger;
  clock: Clock;
  backoff: BackoffPolicy;
  /** Hard maximum for one tool call even while progress keeps arriving (default HARD_MAX_FACTOR × the server's toolTimeout). */
  callHardMaxMs?: number;
  /** Text over this many characters in a tool result is cut to head + tail. */
  textCap: number;
  /** State or lists changed. */
  onChange: (server: McpServer) => void;
  /** A line was added to its log (stderr, a log notification, a note). */
  onLogGrew?: (server: string) => void;
  onResourceUpdated: (server: string, uri: string) => void;
}

/** Hard maximum for one tool call, as a multiple of the per-call (progress-reset) timeout. */
const HARD_MAX_FACTOR = 10;
const ignoreProgress = () => {};

export class McpServer {
  state: ServerState;
  readonly logs = new LineRing(200, undefined, () => this.deps.onLogGrew?.(this.name));
  /** Tools from the tool cache, shown until the server answers with its own list. */
  private cachedTools: Tool[];
  /** The server's own list, once it answered. */
  private liveTools: Tool[] | undefined;
  resources: Resource[] = [];
  prompts: Prompt[] = [];

  private session: ServerSession | undefined;
  /** The sandbox refusal the last failed call met while the server kept running (SECURITY X1): its row shows it, with Allow. */
  sandboxDenial: string | undefined;
  /** Sessions started so far: the next one's sequence number. */
  private sessions = 0;
  private retryTimer: unknown;
  private readonly crashes: CrashTracker;
  /** A package runner's first start may outlive its timeout while it installs: one more try (first-run.ts). */
  private readonly firstRun = new FirstRunRetry();
  private readonly waiters = new Set<() => void>();
  private stopped = false;
  private readonly liveToolNames = memoLast((tools: Tool[]) => new Set(tools.map((t) => t.name)));

  constructor(
    public config: ServerConfig,
    private readonly deps: McpServerDeps,
    cachedTools: Tool[] = [],
  ) {
    this.state = config.enabled ? { kind: 'connecting', reason: 'waiting to start' } : { kind: 'disabled', reason: disabledReason(config) };
    this.cachedTools = cachedTools;
    this.crashes = new CrashTracker(deps.backoff, deps.clock);
  }

  get name(): string {
    return this.config.name;
  }

  get hash(): string {
    return launchHash(this.config);
  }

  /** Last known tools: from the cache until the server answers, then its own. */
  get tools(): Tool[] {
    return this.liveTools ?? this.cachedTools;
  }

  /** The server has answered with its own tool list (what the tool cache keeps). */
  get toolsLive(): boolean {
    return this.liveTools !== undefined;
  }

  /**
   * A failed local server's last stderr lines, shown under its reason: the ones its state carries (what the
   * diagnosis promises "below" and `switchboard status` prints), else read from its log the same way.
   */
  get stderrTail(): string[] | undefined {
    if (this.config.kind !== 'stdio' || (this.state.kind !== 'error' && this.state.kind !== 'backing_off')) return undefined;
    const tail = (this.state.kind === 'error' ? this.state.stderrTail : undefined) ?? stderrTail(this.logs.snapshot());
    return tail.length ? tail : undefined;
  }

  get transportKind(): TransportKind {
    return this.session?.kind ?? configuredKind(this.config);
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
    await this.endSession();
    this.setState({ kind: 'disabled', reason });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.endSession();
    this.wakeWaiters();
  }

  /** Where a request goes now and on which connection (call traces). */
  route(): CallRoute {
    return this.session?.route() ?? callRoute({ transport: this.transportKind, connection: this.sessions });
  }

  /** The client when connected right now, without waiting (the call path's fast case). */
  readyClient(): Client | undefined {
    return this.state.kind === 'connected' ? this.session?.client : undefined;
  }

  /** False only when the server's live tool list lacks `name` (a cached list may be out of date). */
  mayHaveTool(name: string): boolean {
    return this.liveTools === undefined || this.liveToolNames(this.liveTools).has(name);
  }

  /** Wait (within timeoutMs) for a connecting or backing-off server; used by calls to pending tools. */
  async connectedClient(timeoutMs: number): Promise<Client> {
    const deadline = this.deps.clock.now() + timeoutMs;
    for (;;) {
      const ready = this.readyClient();
      if (ready) return ready;
      // "connected" without an open session: the session is being replaced (a new HTTP session); wait for it.
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
    const previous = this.session;
    const session = this.newSession(false);
    this.session = session;
    await previous?.dispose();
    const client = await session.resume();
    if (!client) throw this.notConnected();
    return client;
  }

  /** A dropped remote server is noticed when a request fails on the network; treat it like a crash. */
  connectionLost(error: unknown): void {
    if (this.config.kind !== 'remote' || this.state.kind !== 'connected') return;
    void this.endSession();
    this.scheduleRetry(`request failed: ${error instanceof Error ? error.message : String(error)}`);
  }

  log(line: string): void {
    this.logs.push(line);
  }

  /** The failure of anything asked of a server that is down, classed and fixed as the servers view shows it. */
  notConnected(): AppFailure {
    const diagnosis = diagnoseServer(this.config, this.state) ?? terminal(serverFix(this.config, this.state) ?? `connect "${this.name}" first`);
    return new AppFailure('unavailable', `server "${this.name}" is not connected (${this.state.kind}: ${this.state.reason})`, diagnosis);
  }

  /**
   * Call one of this server's tools by its own name. Waits for a connecting server within its connect
   * timeout; times out per call (reset by progress, with a hard maximum); a server that forgot its
   * HTTP session is re-initialized once, transparently.
   */
  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions = {}, trace?: WireSteps): Promise<ToolResult> {
    const client = this.readyClient() ?? (await this.connectedClient(this.config.timeout * 1000));
    if (!this.mayHaveTool(tool)) throw noSuchTool(this.name, tool);
    const timeout = this.config.toolTimeout * 1000;
    const hardMax = this.deps.callHardMaxMs ?? timeout * HARD_MAX_FACTOR;
    // A controller we may abort, so a call ended by the hard maximum still sends
    // notifications/cancelled (the SDK only sends it on abort or on the per-call timer).
    const cancel = options.controller ?? new CallCancel();
    const onprogress = trace ? tracedProgress(trace, options.onProgress) : (options.onProgress ?? ignoreProgress);
    // Always ask for progress: without a progress token the server cannot keep the call alive.
    const requestOptions = { timeout, resetTimeoutOnProgress: true, maxTotalTimeout: hardMax, signal: requestSignal(cancel.signal), onprogress };
    const asTask = runsAsTask(client, this.tools, tool);
    const denials = this.session?.denials;
    const mark = denials?.mark() ?? 0;
    // The trace hears of each request sent: a re-initialized session is a second one, on a new session.
    const run = (c: Client) => {
      trace?.sent(this.route());
      return asTask
        ? callToolAsTask(c, tool, args, this, { timeoutMs: timeout, hardMaxMs: hardMax, signal: cancel.signal, onProgress: onprogress, ...(options.onTask ? { onTask: options.onTask } : {}) })
        : c.callTool({ name: tool, arguments: args }, undefined, requestOptions);
    };
    try {
      let raw: Awaited<ReturnType<typeof run>>;
      try {
        raw = await run(client);
      } catch (error) {
        if (!isSessionExpired(error)) throw error;
        this.log('[switchboard] the server forgot our session (HTTP 404); re-initializing once');
        raw = await run(await this.reinitialize());
      }
      const result = capCallResult(raw, this.deps.textCap);
      const failed = failedResultText(result);
      const denial = failed === undefined ? undefined : denials?.explain(mark, failed);
      return denial ? withDenial(result, this.noteDenial(denial)) : result;
    } catch (error) {
      const cancelledByCaller = options.controller?.signal.aborted === true;
      // Only the hard maximum ends a call without the SDK telling the server; every other
      // failure is a reply, a closed connection, or a timeout the SDK already cancelled.
      if (!cancelledByCaller && isHardMaxTimeout(error)) cancel.abort(error);
      if (!(error instanceof McpError) && !(error instanceof AppFailure) && !cancelledByCaller) this.connectionLost(error);
      const failure = callFailure(error, { server: this.name, tool, config: this.config, state: this.state, limits: { timeout, hardMax }, cancelledByCaller });
      const denial = cancelledByCaller ? undefined : denials?.explain(mark, failure.message);
      throw denial ? new AppFailure(failure.code, `${this.noteDenial(denial)}: ${failure.message}`, failure.diagnosis) : failure;
    }
  }

  /** A refusal a call met: the row shows it until the server starts again. */
  private noteDenial(denial: string): string {
    this.sandboxDenial = denial;
    this.deps.onChange(this);
    return denial;
  }

  /** A new session replaces the current one at once: a connect asked for later disposes this one before it starts. */
  private async connect(recovering: boolean): Promise<void> {
    if (this.stopped) return;
    this.cancelRetry();
    const previous = this.session;
    this.sandboxDenial = undefined;
    const session = this.config.enabled ? this.newSession(recovering) : undefined;
    this.session = session;
    await previous?.dispose();
    if (session) return session.start();
    if (!this.session && !this.stopped) this.setState({ kind: 'disabled', reason: disabledReason(this.config) });
  }

  private newSession(recovering: boolean): ServerSession {
    const events: SessionEvents = {
      state: (state) => this.setState(state),
      failed: (failure, stopped) => this.failed(session, failure, recovering, stopped),
      opened: () => this.wakeWaiters(), // a call waiting out a session swap (reinitialize) goes on now
      listed: (list, items) => this.listed(list, items),
      changed: () => this.deps.onChange(this),
      resourceUpdated: (uri) => this.deps.onResourceUpdated(this.name, uri),
      closed: (end) => this.closed(session, end),
    };
    const session = new ServerSession(++this.sessions, this.config, this.logs, this.deps, events);
    return session;
  }

  private listed(list: ListName, items: Tool[] | Resource[] | Prompt[]): void {
    if (list === 'tools') this.liveTools = items as Tool[];
    else if (list === 'resources') this.resources = items as Resource[];
    else this.prompts = items as Prompt[];
  }

  private closed(session: ServerSession, end: SessionEnd): void {
    if (this.session === session) this.session = undefined;
    if (this.stopped) return;
    this.cancelRetry();
    if (end.kind === 'stopped') return this.setState(end.state);
    this.scheduleRetry(end.reason);
  }

  private failed(session: ServerSession, failure: Failure, recovering: boolean, stopped: Promise<void>): void {
    if (this.config.kind === 'stdio' && this.firstRun.shouldRetry(this.config, failure, recovering, (note) => this.logs.push(note))) {
      void stopped.then(() => (this.session === session ? this.connect(false) : undefined));
      return;
    }
    if (recovering && failure.retryable) return this.scheduleRetry(failure.reason);
    this.setState(failure.state === 'error' && failure.stderrTail ? { kind: 'error', reason: failure.reason, stderrTail: failure.stderrTail } : { kind: failure.state, reason: failure.reason });
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
  }

  /** No retry pending and no connection: the current session, if any, is disposed (its callbacks inert). */
  private async endSession(): Promise<void> {
    this.cancelRetry();
    const session = this.session;
    this.session = undefined;
    await session?.dispose();
  }

  private setState(state: ServerState): void {
    this.state = state;
    if (state.kind === 'connected') this.deps.logger.info(`mcp: ${this.name} connected`);
    else if (state.kind !== 'connecting') this.deps.logger.info(`mcp: ${this.name} ${state.kind}: ${state.reason}`);
    this.wakeWaiters();
    this.deps.onChange(this);
  }

  private nextChange(timeoutMs: number): Promise<void> {
    return new Promise((done) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(finish);
        done();
      };
      const timer = setTimeout(finish, timeoutMs);
      this.waiters.add(finish);
    });
  }

  private wakeWaiters(): void {
    const waiters = [...this.waiters];
    this.waiters.clear();
    for (const wake of waiters) wake();
  }
}

export function noSuchTool(server: string, tool: string): AppFailure {
  return new AppFailure('not_found', `server "${server}" has no tool "${tool}"`, misuse(`call only tools ${server} lists (switchboard tools ${server})`));
}

function tracedProgress(trace: WireSteps, onProgress: CallOptions['onProgress']): NonNullable<CallOptions['onProgress']> {
  return (progress) => {
    trace.progress(progress);
    onProgress?.(progress);
  };
}

function disabledReason(config: ServerConfig): string {
  return `disabled in ${config.source.path}`;
}
