import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Handlers, ServersSnapshot } from '../../src-preload/contract';
import { AppFailure } from './app-error';
import { appsHandlers } from './apps/apps-handlers';
import { AppearanceSettings, appearanceFile } from './appearance/appearance-settings';
import { configHandlers } from './config/config-handlers';
import { sandboxHandlers } from './sandbox/sandbox-handlers';
import { policyGate } from './policy/policy-gate';
import { ConfigWatcher } from './config/config-watcher';
import { expandServerConfig } from './config/expand';
import { loadConfig, type LoadedConfig } from './config/load-config';
import { entryReads } from './config/provenance';
import type { ServerConfig } from './config/server-config';
import { readProjects } from './config/project-list';
import { TrustStore } from './config/trust-store';
import { bundlesFile, loginPathFile, serversFile } from './data-home';
import type { ChatHandlers } from './chat/chat-handlers';
import type { ChatService } from './chat/chat-service';
import { composeChat, type CallPath } from './compose';
import { SERVER_REQUEST_CAPABILITIES } from './chat/server-requests';
import { RecentLog } from './diagnosis/recent-log';
import { scrubbedAnswers } from './dispatch';
import { EventHub } from './event-hub';
import { BundleInstaller } from './install/bundle-installer';
import { installHandlers, uploadsDir } from './install/install-handlers';
import { InstallLinkInbox } from './install/install-link-inbox';
import { savedLoginPath } from './mcp/saved-login-path';
import { CommandSecrets } from './secrets/command-secrets';
import { ServerInstaller } from './install/server-installer';
import { UploadStaging } from './install/upload-staging';
import { McpManager, type McpManagerDeps } from './mcp/mcp-manager';
import { promptResultView, promptView, resourceContentViews, resourceTemplateView, resourceView, serverView } from './mcp/views';
import type { Logger, SecretVault, UrlOpener } from './ports';
import { authHandlers } from './oauth/auth-handlers';
import { SignInService, type SignInDeps } from './oauth/sign-in';
import { migrationHandlers } from './secrets/migration-handlers';
import { secretHandlers } from './secrets/secret-handlers';
import { Scrubber } from './secrets/scrubber';
import { aggregateStatus } from './status';
import { flagToolDefinition } from './approvals/description-flags';
import { grantHandlers } from './approvals/grant-handlers';
import { toolRunHandlers } from './tools/tool-run-handlers';
import { CallTraces } from './traces/call-traces';
import { otlpSinkFromEnv } from './traces/otlp-export';
import { traceHandlers } from './traces/trace-handlers';
import { readPolicySync } from './policy/policy-file';
import { policyView } from './policy/policy-view';
import appPackage from '../../package.json';

export interface CoreDeps {
  home: string;
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
  /** Tuning and plug-ins for the MCP manager (OAuth provider, backoff, timers in tests). */
  mcp?: Omit<McpManagerDeps, 'home' | 'logger'>;
  /** OAuth sign-in tuning (client ID metadata document URL, timeouts, clock and fetch in tests). */
  oauth?: Omit<SignInDeps, 'vault' | 'opener' | 'logger' | 'onSignInChanged'>;
  /** The fetch registry and bundle downloads take (default: the guarded fetch). */
  installFetch?: FetchLike;
  /**
   * The shells' window first: servers start once a window has drawn its first servers list (from the
   * tool cache; dozens of servers booting at once would hold that up), or after this many ms if none
   * does. Unset (the CLI, tests): at once.
   */
  holdServersForWindowMs?: number;
}

/** How long the shells hold servers back for their window's first servers list (CoreDeps.holdServersForWindowMs). */
export const WINDOW_FIRST_MS = 3000;

/** The whole app in plain Node; the Electron shell and the web host are thin adapters over it. */
export class SwitchboardCore {
  /** Every secret the process resolves, replaced at the output edges: log, events, answers, CLI, bundle (SECURITY S7). */
  readonly scrubber = new Scrubber();
  readonly events = new EventHub(this.scrubber);
  readonly mcp: McpManager;
  /** Approvals, the ToolCaller, call traces and tool loading: composed here, handed to the chat, the panels, apps and the CLI. */
  readonly calls: CallPath;
  readonly chat: ChatService;
  /** The theme choice; the shells follow it (Electron's nativeTheme, window background, tray). */
  readonly appearance: AppearanceSettings;
  private readonly chatHandlers: ChatHandlers;
  /** OAuth sign-in for remote servers; its providers are what the manager connects with. */
  readonly signIn: SignInService;
  /** Opens the launch gate (CoreDeps.holdServersForWindowMs). */
  private windowHasServers?: () => void;
  private loaded: LoadedConfig | undefined;
  /** Watches every config file once started; outside edits are applied as a diff. */
  private watcher: ConfigWatcher | undefined;
  /** Approvals for project stdio servers (SECURITY P1); opened in start(), absent before = nothing trusted. */
  trustStore: TrustStore | undefined;
  /** .mcpb bundles: installed into the data home, each blocked until approved. */
  readonly bundles: BundleInstaller;
  private readonly uploads: UploadStaging;
  /** The curated catalog and the MCP Registry. */
  readonly servers: ServerInstaller;
  /** ${cmd:…} values, read once per session (SECURITY S4). */
  private readonly commandSecrets: Pick<CommandSecrets, 'read'>;
  /** Install links the desktop shell (or web mode's command line) was handed, until the window takes them. */
  readonly installLinks = new InstallLinkInbox(() => this.events.emit('installLinkOffered', {}));

  /** The app's log, whose last lines go into the diagnostics bundle. */
  readonly log: RecentLog;

  private readonly deps: CoreDeps;

  constructor(given: CoreDeps) {
    // Every keychain value read or written through the core is known to the scrubber (SECURITY S7).
    const deps: CoreDeps = { ...given, vault: this.scrubber.watch(given.vault) };
    this.deps = deps;
    const loginPath = deps.mcp?.loginPath ?? savedLoginPath({ file: loginPathFile(deps.home) });
    const launchGate = deps.holdServersForWindowMs === undefined ? undefined : this.windowGate(deps.holdServersForWindowMs);
    this.commandSecrets = this.scrubber.watchCommands(new CommandSecrets({ loginPath }));
    this.log = new RecentLog(deps.logger, this.scrubber);
    this.appearance = new AppearanceSettings(appearanceFile(deps.home), this.log);
    this.appearance.onChange((appearance) => this.events.emit('appearanceChanged', appearance));
    this.signIn = new SignInService({
      vault: deps.vault,
      opener: deps.opener,
      logger: this.log,
      ...deps.oauth,
      onSignInChanged: (server, running) => this.events.emit('signInChanged', { server, running }),
    });
    this.mcp = new McpManager({
      home: deps.home,
      logger: this.log,
      authProviderFor: this.signIn.providerFor,
      expand: async (config) => {
        const expanded = await expandServerConfig(config, process.env, deps.vault, this.commandSecrets);
        if (expanded.ok) this.scrubber.rememberConfig(expanded.config);
        return policyGate(expanded);
      },
      trust: (config) => this.trustStore?.isTrusted(config) ?? false,
      // Elicitation and sampling go to the chat's broker (A5); the chat exists by the time a server connects.
      clientSetup: { capabilities: SERVER_REQUEST_CAPABILITIES, register: (client, server) => this.chat.registerServerRequests(client, server) },
      ...(launchGate ? { launchGate } : {}),
      ...deps.mcp,
      loginPath,
    });
    // Without a listener (the CLI) no snapshot is built: it counts tool tokens, which starts the tokenizer's worker.
    const serversChanged = () => {
      if (this.events.listening) this.events.emit('serversChanged', this.snapshot());
    };
    this.mcp.onChange(serversChanged);
    this.mcp.logNotices.on((name) => this.events.emit('serverLogsChanged', { name }));
    // Call traces stay in memory; OTEL_EXPORTER_OTLP_ENDPOINT also sends them to a collector (off by default).
    const sink = otlpSinkFromEnv(process.env, this.log, appPackage.version);
    const composed = composeChat({
      home: deps.home,
      vault: deps.vault,
      opener: deps.opener,
      logger: this.log,
      events: this.events,
      mcp: this.mcp,
      traces: new CallTraces(sink ? { sink } : {}),
      ...(launchGate ? { countAfter: launchGate } : {}),
    });
    ({ calls: this.calls, chat: this.chat, handlers: this.chatHandlers } = composed);
    // Token counts of tools just arrived come in from the worker after the change that brought them.
    this.calls.loading.onCounted(serversChanged);
    this.uploads = new UploadStaging(uploadsDir(deps.home));
    this.bundles = new BundleInstaller({
      home: deps.home,
      vault: deps.vault,
      serverNames: () => [...(this.loaded?.servers.map((s) => s.name) ?? []), ...Object.keys(this.loaded?.shadowed ?? {})],
      reload: () => this.reload(),
      revokeTrust: async (name) => {
        const trust = (this.trustStore ??= await TrustStore.open(deps.home));
        await trust.revoke(name, bundlesFile(deps.home));
      },
    });
    this.servers = new ServerInstaller({
      home: deps.home,
      vault: deps.vault,
      serverNames: () => [...(this.loaded?.servers.map((s) => s.name) ?? []), ...Object.keys(this.loaded?.shadowed ?? {})],
      reload: () => this.reload(),
      staging: this.uploads,
      ...(deps.installFetch ? { fetch: deps.installFetch } : {}),
    });
    this.handlers = scrubbedAnswers(this.buildHandlers(), this.scrubber);
  }

  get configPath(): string {
    return serversFile(this.deps.home);
  }

  async start(): Promise<void> {
    await this.appearance.load();
    await this.chat.start();
    this.trustStore = await TrustStore.open(this.deps.home);
    await this.uploads.clear();
    this.watcher = new ConfigWatcher({
      home: this.deps.home,
      onChange: (loaded) => this.apply(loaded),
      onError: (error) => this.log.warn('config reload failed', { error: String(error) }),
    });
    await this.watcher.start();
  }

  /** Settles when a window has drawn its first servers list (windowShown), or after `maxMs`. */
  private windowGate(maxMs: number): Promise<void> {
    return new Promise<void>((open) => {
      this.windowHasServers = () => open();
      setTimeout(open, maxMs).unref();
    });
  }

  /** Stops every server (whole process groups); nothing is left running. */
  async stop(): Promise<void> {
    this.watcher?.stop();
    await Promise.all([this.mcp.stop(), this.calls.loading.close()]);
    await this.calls.traces.shutdown();
  }

  snapshot(): ServersSnapshot {
    const { loading } = this.calls;
    const servers = this.mcp.statuses().map((s) => ({
      ...serverView(s, this.loaded?.shadowed[s.name] ?? [], {
        schemaTokens: loading.serverTokens(s.name),
        pinned: this.mcp.settings.isServerPinned(s.name),
        oauth: s.transport !== 'stdio' && (s.state.kind === 'needs_auth' || this.signIn.appliesTo(s.name)),
      }),
      ...(s.state.kind === 'trust_required' ? { reads: entryReads(s.config) } : {}),
    }));
    return { servers, problems: this.loaded?.problems ?? [], status: aggregateStatus(servers, this.loaded?.mcpDisabled ?? false), configPath: this.configPath, toolBudget: loading.budgetView() };
  }

  /** The diagnostics zip: versions, OS, states, recent logs and stderr, config with every secret replaced. */
  async diagnosticsBundle(): Promise<Uint8Array> {
    // The zip writer loads when asked for, not at start (main-process memory).
    const { buildDiagnosticsBundle } = await import('./diagnosis/diagnostics-bundle');
    return buildDiagnosticsBundle({
      statuses: this.mcp.statuses(),
      logs: (server) => this.mcp.logs(server),
      appLog: this.log.lines(),
      problems: this.loaded?.problems ?? [],
      configPath: this.configPath,
      vault: this.deps.vault,
      env: process.env,
      scrubber: this.scrubber,
      now: new Date(),
    });
  }

  /** Read the config again and apply it as a diff (only changed servers restart). */
  async reload(): Promise<void> {
    if (this.watcher) await this.watcher.reload();
    else await this.apply(await loadConfig({ home: this.deps.home }));
  }

  private async apply(loaded: LoadedConfig): Promise<void> {
    // A server the person removed takes its credentials (SECURITY S2) and always-allows with it; one refused or unreadable
    // (a problem names it) keeps them: a read or a rule is not the person's removal.
    const kept = new Set([...loaded.servers.map((s) => s.name), ...loaded.problems.flatMap((p) => (p.server ? [p.server] : []))]);
    for (const gone of this.loaded?.servers ?? []) {
      if (kept.has(gone.name)) continue;
      if (gone.kind === 'remote') {
        await this.signIn.forget(gone).catch((error) => this.log.warn('could not delete credentials of a removed server', { server: gone.name, error: String(error) }));
      }
      // And its always-allows (SECURITY V1): another server given the name later, in the same file, starts asking.
      await this.calls.approvals.revokeServer(gone.name).catch((error) => this.log.warn('could not forget the approvals of a removed server', { server: gone.name, error: String(error) }));
    }
    this.loaded = loaded;
    // The folders the user opened as projects are the roots a server may ask for (roots/list).
    this.mcp.setRoots((await readProjects(this.deps.home)).projects);
    await this.mcp.apply(loaded.servers, { mcpDisabled: loaded.mcpDisabled });
  }

  readonly handlers: Handlers;

  /** Sign-in reaches a server's URL, so a project's server waits for its approval first (SECURITY P1). */
  private approvedServer(name: string): ServerConfig | undefined {
    const server = this.loaded?.servers.find((s) => s.name === name);
    if (server && !(this.trustStore?.isTrusted(server) ?? server.source.userWritten)) {
      throw new AppFailure('invalid_input', `server "${name}" is defined in ${server.source.path}; approve it before signing in`);
    }
    return server;
  }

  /** Built last in the constructor: the chat and the manager must exist first. */
  private buildHandlers(): Handlers {
    const config = configHandlers({
      home: this.deps.home,
      trust: async () => (this.trustStore ??= await TrustStore.open(this.deps.home)),
      current: () => this.loaded,
      reload: () => this.reload(),
      reconnect: (name) => this.mcp.reconnect(name),
      vault: this.deps.vault,
    });
    return {
      ...config,
      // Removing an installed bundle's server is uninstalling it: folder, secrets and approval go too.
      removeServer: async (input) => {
        if (this.loaded?.servers.find((s) => s.name === input.name)?.source.origin !== 'bundle') return config.removeServer(input);
        await this.bundles.uninstall(input.name);
        return null;
      },
      ...this.chatHandlers,
      ...installHandlers(this.bundles, this.uploads, this.servers, this.installLinks),
      ...grantHandlers({ approvals: this.calls.approvals, rules: this.calls.rules }),
      ...sandboxHandlers({ home: this.deps.home, server: (name) => {
          const status = this.mcp.status(name);
          return status && { config: status.config, reason: status.state.reason, ...(status.sandboxDenial ? { denial: status.sandboxDenial } : {}) };
        }, reload: () => this.reload() }),
      ...migrationHandlers({ home: this.deps.home, vault: this.deps.vault, reload: () => this.reload() }),
      ...secretHandlers(this.deps.vault),
      ...toolRunHandlers(this.calls.caller, (update) => this.events.emit('toolRunUpdated', update)),
      ...traceHandlers(this.calls.traces, this.mcp),
      ...appsHandlers({ mcp: this.mcp, caller: this.calls.caller }),
      ...authHandlers({
        signIn: this.signIn,
        findServer: (name) => this.approvedServer(name),
        afterCredentialsChanged: (name) => this.mcp.reconnect(name),
      }),
      // The administrator's policy as it is now, for the pages that show what it locks (SECURITY X2).
      getPolicy: async () => policyView(readPolicySync(), this.loaded?.servers ?? []),
      getAppearance: async () => this.appearance.get(),
      setAppearance: async (appearance) => this.appearance.set(appearance),
      listServers: async () => this.snapshot(),
      windowShown: async () => {
        this.windowHasServers?.();
        return null;
      },
      exportDiagnostics: async () => {
        const [zip, { diagnosticsFileName }] = await Promise.all([this.diagnosticsBundle(), import('./diagnosis/diagnostics-bundle')]);
        return { fileName: diagnosticsFileName(new Date()), zipBase64: Buffer.from(zip).toString('base64') };
      },
      reconnectServer: async ({ name }) => {
        await this.mcp.reconnect(name);
        return null;
      },
      reconnectAll: async () => {
        await this.mcp.reconnectAll();
        return null;
      },
      serverLogs: async ({ name }) => ({ name, stderr: this.mcp.logs(name) }),
      // The panel shows the same poisoning warnings as the approval dialog (SECURITY A2).
      listTools: async ({ server }) => {
        // The panel shows counted figures: tools just arrived are counted first (well under a second).
        await this.calls.loading.ready();
        return this.mcp.tools(server).map((tool) => ({
          ...tool,
          flags: flagToolDefinition(tool),
          tokens: this.calls.loading.tokens(tool),
          pinned: this.mcp.settings.isPinned(tool.server, tool.name),
          serverPinned: this.mcp.settings.isServerPinned(tool.server),
        }));
      },
      setToolEnabled: async ({ qualifiedName, enabled }) => {
        await this.mcp.setToolEnabled(qualifiedName, enabled);
        return null;
      },
      setToolPinned: async ({ qualifiedName, pinned }) => {
        await this.mcp.setToolPinned(qualifiedName, pinned);
        return null;
      },
      setServerPinned: async ({ name, pinned }) => {
        await this.mcp.setServerPinned(name, pinned);
        return null;
      },
      setToolBudget: async (budget) => {
        await this.mcp.setToolBudget(budget);
        return null;
      },
      listResources: async ({ name }) => ({
        resources: this.mcp.resources(name).map((r) => resourceView(name, r)),
        templates: (await this.mcp.listResourceTemplates(name)).map((t) => resourceTemplateView(name, t)),
      }),
      readResource: async ({ name, uri }) => resourceContentViews(await this.mcp.readResource(name, uri)),
      listPrompts: async ({ server }) => this.mcp.prompts(server).map(({ server: s, prompt }) => promptView(s, prompt)),
      getPrompt: async ({ name, prompt, arguments: args }) => promptResultView(await this.mcp.getPrompt(name, prompt, args ?? {})),
      openExternal: async ({ url }) => {
        await this.deps.opener.open(url);
        return null;
      },
    };
  }
}
