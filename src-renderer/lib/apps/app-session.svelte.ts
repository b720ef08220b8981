import { AppBridge, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EmptyResultSchema, type CallToolResult, type ContentBlock, type ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { AppCsp, AppPermissions } from '../../../src-preload/contract/apps';
import { consoleLine } from './app-console';
import { FloodGuard } from './flood-guard';
import { GuardedTransport } from './guarded-transport';
import { PendingRequests } from './pending-requests.svelte';

/** What the host gives one app frame; the AppFrame component's props. */
export interface AppFrameProps {
  html: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
  /** The app's `ui://` resource: with the server, it names the app's own sandbox origin. */
  appUri: string;
  toolName: string;
  serverName: string;
  toolInput: Record<string, unknown>;
  toolResult?: CallToolResult;
  theme: 'light' | 'dark';
  /** `frame` names this app's frame to main, which bounds and ends its requests with it (SECURITY U7). */
  callTool: (name: string, args: Record<string, unknown>, frame: string) => Promise<CallToolResult>;
  readResource?: (uri: string) => Promise<ReadResourceResult>;
  /** Opens a link the person clicked "Open" on (main checks it again, O8). */
  openLink: (url: string) => Promise<void>;
  /** The O8 check, before a link is shown to the person: the URL as it would open, or why not. */
  checkLink?: (url: string) => Promise<{ ok: true; url: string } | { ok: false; reason: string }>;
  /** Ends the frame's requests waiting in main: the person denied them all, or the frame went. */
  endRequests?: (frame: string, reason: 'denied' | 'closed') => Promise<void>;
  onMessage: (text: string) => void;
  onContextUpdate: (text: string) => void;
  /** Tests only: shorter clocks. */
  limits?: Partial<AppLimits>;
}

export interface AppLimits {
  /** The app must finish ui/initialize within this. */
  initMs: number;
  /** Messages per second past which the app is stopped as flooding. */
  messagesPerSecond: number;
  /** How often the host pings a running app, and how long each ping may take. */
  pingEveryMs: number;
  pingTimeoutMs: number;
  /** The frame grows with the app up to this height, then the app scrolls inside it. */
  maxHeight: number;
}

// Generous clocks: a 4 MB app (server-pdf's viewer) takes seconds to parse on a busy machine.
export const DEFAULT_LIMITS: AppLimits = { initMs: 30_000, messagesPerSecond: 200, pingEveryMs: 5_000, pingTimeoutMs: 30_000, maxHeight: 640 };
export const MIN_HEIGHT = 48;
/**
 * Room an app gets until it reports its size. Not the minimum: an app laid out to fill its viewport
 * (server-wiki-explorer's 100vh graph) measures the frame it was given and would report 48 px forever.
 */
export const INITIAL_HEIGHT = 400;

export type AppStatus = { kind: 'loading' } | { kind: 'running' } | { kind: 'failed'; reason: string } | { kind: 'closed' };

const HOST_INFO = { name: 'Switchboard', version: '0.1.0' };

const textOf = (blocks: ContentBlock[] | undefined): string =>
  (blocks ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n');

/**
 * One MCP App in its sandbox (SECURITY U1–U6): connects an AppBridge to the proxy frame through a
 * guarded postMessage transport, hands over the HTML, then the tool input and result; keeps the app's
 * host context current; and stops the app, with a reason, when it floods, never starts or stops answering.
 */
export class AppSession {
  status = $state<AppStatus>({ kind: 'loading' });
  height = $state(INITIAL_HEIGHT);
  /** What the app has waiting (tool calls, link asks), bounded (SECURITY U7). */
  readonly requests = new PendingRequests();
  /** Links the app asked for that the URL policy refused (O8): shown, never opened. */
  refusedLinks = $state.raw<{ url: string; reason: string }[]>([]);
  /** This frame's name in main; a fresh one per card, so a closed card's requests cannot come back. */
  readonly frameId = crypto.randomUUID();
  private bridge: AppBridge | undefined;
  private timers: ReturnType<typeof setTimeout>[] = [];
  /** The last result sent, as JSON: the same result again (a card re-rendered from what was stored) is not sent twice. */
  private sentResult: string | undefined;
  private disposed = false;
  /** The first error the app's console printed, as one plain line: said when the app fails to start. */
  private consoleError: string | undefined;
  private context: McpUiHostContext;
  readonly limits: AppLimits;

  constructor(
    private readonly props: () => AppFrameProps,
    width: number,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...props().limits };
    const { theme } = props();
    this.context = {
      theme,
      displayMode: 'inline',
      availableDisplayModes: ['inline'],
      containerDimensions: { width, maxHeight: this.limits.maxHeight },
      platform: window.switchboard ? 'desktop' : 'web',
      locale: navigator.language,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    };
  }

  /** Wires the bridge to `frame`, then points the frame at the proxy; the bridge listens before the proxy can speak. */
  async start(frame: HTMLIFrameElement, proxyUrl: string): Promise<void> {
    // The card may have left while the proxy address was on its way.
    if (this.disposed) return;
    const p = this.props();
    const bridge = new AppBridge(
      null,
      HOST_INFO,
      {
        openLinks: {},
        serverTools: {},
        ...(p.readResource ? { serverResources: {} } : {}),
        logging: {},
        message: { text: {} },
        updateModelContext: { text: {}, structuredContent: {} },
        // What the app really gets: its declared origins (the proxy drops any it cannot accept), no permissions.
        sandbox: { csp: $state.snapshot(p.csp) ?? {}, permissions: {} },
      },
      { hostContext: this.context },
    );
    this.bridge = bridge;
    // Props may be reactive proxies, which postMessage cannot clone: send plain snapshots.
    bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html: p.html, ...(p.csp ? { csp: $state.snapshot(p.csp) } : {}) });
    bridge.oninitialized = () => this.onInitialized();
    bridge.onsizechange = ({ height }) => {
      if (typeof height === 'number' && Number.isFinite(height)) this.height = Math.min(this.limits.maxHeight, Math.max(MIN_HEIGHT, Math.ceil(height)));
    };
    bridge.oncalltool = async ({ name, arguments: args }) => this.requests.run(() => this.props().callTool(name, args ?? {}, this.frameId));
    bridge.onreadresource = async ({ uri }) => {
      const read = this.props().readResource;
      if (!read) throw new Error('this host does not read resources for apps');
      return read(uri);
    };
    // Nothing opens without the person's click on the whole URL, which passed the URL policy first (SECURITY U7, O8).
    bridge.onopenlink = async ({ url }) => {
      const checked = (await this.props().checkLink?.(url)) ?? { ok: true as const, url };
      if (!checked.ok) {
        this.refusedLinks = [...this.refusedLinks.slice(-2), { url: url.slice(0, 2000), reason: checked.reason }];
        return { isError: true };
      }
      if (!(await this.requests.askToOpen(checked.url))) return { isError: true };
      try {
        await this.props().openLink(checked.url);
        return {};
      } catch {
        return { isError: true };
      }
    };
    bridge.onmessage = async ({ content }) => {
      this.props().onMessage(textOf(content));
      return {};
    };
    bridge.onupdatemodelcontext = async ({ content, structuredContent }) => {
      const text = [textOf(content), structuredContent ? JSON.stringify(structuredContent) : ''].filter(Boolean).join('\n');
      this.props().onContextUpdate(text);
      return {};
    };
    bridge.onrequestdisplaymode = async () => ({ mode: 'inline' });
    bridge.onrequestteardown = () => this.end({ kind: 'closed' });
    bridge.onloggingmessage = () => {};

    const window = frame.contentWindow;
    if (!window) return this.fail('the app frame has no window');
    const transport = new GuardedTransport(new PostMessageTransport(window, window), new FloodGuard(this.limits.messagesPerSecond), {
      onFlood: () => this.fail(`the app sent more than ${this.limits.messagesPerSecond} messages in a second and was stopped`),
      onSandboxError: (reason) => this.fail(reason),
      onConsoleError: (text) => (this.consoleError ??= consoleLine(text) || undefined),
    });
    await bridge.connect(transport);
    this.later(this.limits.initMs, () => {
      if (this.status.kind !== 'loading') return;
      const said = this.consoleError ? `; its console said: ${this.consoleError}` : '';
      this.fail(`the app did not start within ${Math.round(this.limits.initMs / 1000)} s${said}`);
    });
    frame.src = proxyUrl;
  }

  private onInitialized(): void {
    if (this.status.kind !== 'loading') return;
    this.status = { kind: 'running' };
    const p = this.props();
    void this.bridge?.sendToolInput({ arguments: $state.snapshot(p.toolInput) });
    this.deliverResult(p.toolResult);
    this.watchLiveness();
  }

  /** The spec's order: input first, then the result once there is one (a later Run may bring another). */
  deliverResult(result: CallToolResult | undefined): void {
    if (this.status.kind !== 'running' || !result) return;
    const snapshot = $state.snapshot(result);
    const json = JSON.stringify(snapshot);
    if (json === this.sentResult) return;
    this.sentResult = json;
    void this.bridge?.sendToolResult(snapshot);
  }

  updateContext(change: Partial<Pick<McpUiHostContext, 'theme'>> & { width?: number }): void {
    const { width, ...rest } = change;
    const next = { ...this.context, ...rest, ...(width !== undefined ? { containerDimensions: { width, maxHeight: this.limits.maxHeight } } : {}) };
    if (this.status.kind === 'running') {
      this.context = next;
      this.bridge?.setHostContext(next);
    } else {
      // Before ui/initialize nothing may be sent; the bridge answers it with this very object.
      Object.assign(this.context, next);
    }
  }

  /** A hung or crashed app answers no ping; its card says so instead of showing a frozen frame. */
  private watchLiveness(): void {
    const ping = async () => {
      if (this.status.kind !== 'running' || !this.bridge) return;
      try {
        await this.bridge.request({ method: 'ping' }, EmptyResultSchema, { timeout: this.limits.pingTimeoutMs });
      } catch {
        if (this.status.kind === 'running') this.fail(`the app stopped answering (no reply within ${Math.round(this.limits.pingTimeoutMs / 1000)} s)`);
        return;
      }
      this.later(this.limits.pingEveryMs, () => void ping());
    };
    this.later(this.limits.pingEveryMs, () => void ping());
  }

  private later(ms: number, run: () => void): void {
    this.timers.push(setTimeout(run, ms));
  }

  fail(reason: string): void {
    this.end({ kind: 'failed', reason });
  }

  private end(status: AppStatus): void {
    if (this.status.kind === 'failed' || this.status.kind === 'closed') return;
    this.status = status;
    this.dispose();
  }

  /** "Deny all from this app": every link ask declined, every tool call it has waiting ended; the app may ask again. */
  denyAll(): void {
    this.endRequests('denied');
  }

  private endRequests(reason: 'denied' | 'closed'): void {
    this.requests.declineLinks();
    void this.props().endRequests?.(this.frameId, reason).catch(() => {});
  }

  /** Teardown: tell a running app it is going (best effort; its frame leaves with the card), then let go of it. */
  dispose(): void {
    if (!this.disposed) this.endRequests('closed');
    this.disposed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    const bridge = this.bridge;
    this.bridge = undefined;
    if (!bridge) return;
    void bridge
      .teardownResource({}, { timeout: 500 })
      .catch(() => {})
      .finally(() => void bridge.close());
  }
}
