/** The chat area assembled: settings, provider, conversations, approvals, the tool loop, server requests. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ChatSettings, ChatSettingsView, LocalProbe, ProviderKind } from '../../../src-preload/contract/chat';
import { ApprovalBroker, type BrokerEvent } from '../approvals/approval-broker';
import type { ServerApproval } from '../approvals/approval-policy';
import { ApprovalStore, approvalsFile } from '../approvals/approval-store';
import type { EventHub } from '../event-hub';
import { systemClock, type Clock, type Logger, type SecretVault, type UrlOpener } from '../ports';
import { ChatSessions, type ChatEvent } from './chat-session';
import { ConversationStore, conversationsDir } from './conversation-store';
import type { ChatProvider } from './providers/chat-provider';
import { apiKeyName, ChatSettingsStore, chatSettingsFile, createProvider, LOCAL_OPENAI_COMPATIBLE_URL, probeLocalModel, settingsView } from './providers/provider-settings';
import { registerServerRequestHandlers, type ServerRequestDeps } from './server-requests';
import { ToolCaller, type ToolSource } from '../tools/tool-caller';
import { CallTraces } from '../traces/call-traces';
import { join } from 'node:path';
import type { AttachmentInput } from '../../../src-preload/contract/chat';
import { MAX_IMAGE_BYTES } from '../../../src-preload/contract/values';
import { AppFailure } from '../app-error';
import { UploadStaging } from '../install/upload-staging';
import type { McpManager } from '../mcp/mcp-manager';
import { resolveAttachments } from './attachments';
import { DEFAULT_LOADING_SETTINGS, ToolLoading, type ToolLoadingSettings } from '../tools/tool-loading';

export interface ChatServiceDeps {
  home: string;
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
  /** Chat and approval events for the shells: `emitToHub(core.events)`. */
  emit: (event: ChatEvent | BrokerEvent) => void;
  /** Where tools come from: the MCP manager (a test may bring SDK clients of its own). */
  tools: ToolSource;
  /** Budget and pins for tools on demand (the MCP manager's tool settings); the defaults when absent. */
  toolSettings?: ToolLoadingSettings;
  /** The `approval` field of the server's config ("ask" when unknown). */
  serverApproval: (server: string) => ServerApproval;
  clock?: Clock;
  /** Where "no key" probes for a local model; Ollama's default. */
  localProbeUrl?: string;
  serverRequestTimeoutMs?: number;
  /** Where call traces are kept (and exported); a private in-memory one when absent. */
  traces?: CallTraces;
  /** Server resources a person attaches to a message (main reads them itself); none when absent. */
  resources?: Pick<McpManager, 'readResource' | 'resources'>;
  /** Background work (counting tool tokens) starts once this settles: the shells' window first (CoreDeps.holdServersForWindowMs). */
  backgroundAfter?: Promise<unknown>;
}

export class ChatService {
  readonly settings: ChatSettingsStore;
  readonly approvals: ApprovalStore;
  readonly broker: ApprovalBroker;
  readonly conversations: ConversationStore;
  readonly sessions: ChatSessions;
  /** The one call path for every caller: the chat, the tools panel, MCP Apps, the CLI. */
  readonly caller: ToolCaller;
  /** Every call's timeline (asked, approved, sent, progress, answered), for the tool card and the server's Logs. */
  readonly traces: CallTraces;
  /** Schema tokens, the budget, and tools on demand over the caller's model tools. */
  readonly loading: ToolLoading;
  /** Images on their way into the next message, in chunks (web mode's frames are 1 MiB). */
  readonly imageUploads: UploadStaging;
  private readonly clock: Clock;

  constructor(private readonly deps: ChatServiceDeps) {
    this.imageUploads = new UploadStaging(join(deps.home, 'chat-uploads'), MAX_IMAGE_BYTES, { noun: 'image', use: 'attached', extension: '.img' });
    this.clock = deps.clock ?? systemClock;
    this.settings = new ChatSettingsStore(chatSettingsFile(deps.home), deps.logger, this.clock);
    this.approvals = new ApprovalStore(approvalsFile(deps.home), deps.logger, this.clock);
    this.conversations = new ConversationStore(conversationsDir(deps.home), deps.logger);
    this.broker = new ApprovalBroker({
      store: this.approvals,
      settings: () => {
        const { rules, autoAllowReadOnly } = this.settings.peek();
        return { rules, autoAllowReadOnly, serverApproval: deps.serverApproval };
      },
      emit: (event) => this.emit(event),
      clock: this.clock,
    });
    this.traces = deps.traces ?? new CallTraces({ clock: this.clock });
    this.caller = new ToolCaller({ source: deps.tools, broker: this.broker, traces: this.traces });
    this.loading = new ToolLoading({
      all: () => deps.tools.tools(),
      candidates: () => this.caller.modelTools(),
      settings: deps.toolSettings ?? DEFAULT_LOADING_SETTINGS,
      ...(deps.backgroundAfter ? { countAfter: deps.backgroundAfter } : {}),
    });
    this.sessions = new ChatSessions({
      store: this.conversations,
      broker: this.broker,
      tools: this.caller,
      loading: this.loading,
      provider: () => this.provider(),
      emit: (event) => this.emit(event),
      clock: this.clock,
      logger: deps.logger,
    });
  }

  async start(): Promise<void> {
    await this.imageUploads.clear();
    await this.settings.load();
    await this.approvals.load();
  }

  /** A person's message with its attachments read and checked (images by their bytes, resources read here), then the turn. */
  async send(conversationId: string | undefined, text: string, inputs: readonly AttachmentInput[] = []): ReturnType<ChatSessions['send']> {
    const resources = this.deps.resources;
    const attachments = await resolveAttachments(inputs, {
      uploads: this.imageUploads,
      readResource: (server, uri) => {
        if (!resources) throw new AppFailure('unavailable', 'this chat has no servers to read resources from');
        return resources.readResource(server, uri);
      },
      resourceName: (server, uri) => {
        const listed = resources?.resources(server).find((r) => r.uri === uri);
        return listed?.title ?? listed?.name;
      },
    });
    return this.sessions.send(conversationId, text, attachments);
  }

  now(): number {
    return this.clock.now();
  }

  provider(): Promise<ChatProvider> {
    return createProvider(this.settings.get(), this.deps.vault, this.deps.localProbeUrl ?? LOCAL_OPENAI_COMPATIBLE_URL);
  }

  async view(): Promise<ChatSettingsView> {
    return settingsView(this.settings.get(), this.deps.vault);
  }

  async updateSettings(next: ChatSettings): Promise<ChatSettingsView> {
    await this.settings.set(next);
    return this.view();
  }

  /** The key goes to the keychain only; it is never returned or logged (SECURITY S1, S3). */
  async setApiKey(provider: ProviderKind, key: string): Promise<ChatSettingsView> {
    await this.deps.vault.set(apiKeyName(provider), key);
    return this.view();
  }

  probeLocal(): Promise<LocalProbe> {
    return probeLocalModel(this.deps.localProbeUrl ?? LOCAL_OPENAI_COMPATIBLE_URL);
  }

  serverRequestDeps(): ServerRequestDeps {
    return { broker: this.broker, opener: this.deps.opener, sampler: () => this.provider(), ...(this.deps.serverRequestTimeoutMs ? { timeoutMs: this.deps.serverRequestTimeoutMs } : {}) };
  }

  /** For the MCP manager: call on each Client created with SERVER_REQUEST_CAPABILITIES, before connect. */
  registerServerRequests(client: Client, server: string): void {
    registerServerRequestHandlers(client, server, this.serverRequestDeps());
  }

  private emit(event: ChatEvent | BrokerEvent): void {
    this.deps.emit(event);
  }
}

/** Forwards chat and approval events to the core's EventHub under their contract names. */
export function emitToHub(hub: EventHub): (event: ChatEvent | BrokerEvent) => void {
  return (event) => {
    switch (event.name) {
      case 'chatDelta':
        return hub.emit('chatDelta', event.payload);
      case 'chatTurnState':
        return hub.emit('chatTurnState', event.payload);
      case 'toolCallUpdated':
        return hub.emit('toolCallUpdated', event.payload);
      case 'approvalRequested':
        return hub.emit('approvalRequested', event.payload);
      case 'approvalSettled':
        return hub.emit('approvalSettled', event.payload);
      default:
        return event satisfies never;
    }
  };
}
