/** The chat area: settings, provider, conversations, the tool loop and server requests, over the call path the root composed. */
import type { ApprovalSettingsStore } from '../approvals/approval-settings';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ChatSettings, ChatSettingsView, LocalProbe, ProviderKind } from '../../../src-preload/contract/chat';
import type { ApprovalBroker, BrokerEvent } from '../approvals/approval-broker';
import type { ApprovalStore } from '../approvals/approval-store';
import type { ToolCaller } from '../tools/tool-caller';
import type { ToolLoading } from '../tools/tool-loading';
import type { EventHub } from '../event-hub';
import { systemClock, type Clock, type Logger, type SecretVault, type UrlOpener } from '../ports';
import { ChatSessions, type ChatEvent } from './chat-session';
import { ConversationStore, conversationsDir } from './conversation-store';
import type { ChatProvider } from './providers/chat-provider';
import { apiKeyName, ChatSettingsStore, chatSettingsFile, createProvider, LOCAL_OPENAI_COMPATIBLE_URL, probeLocalModel, settingsView } from './providers/provider-settings';
import { registerServerRequestHandlers, type ServerRequestDeps } from './server-requests';
import { join } from 'node:path';
import type { AttachmentInput } from '../../../src-preload/contract/chat';
import { MAX_IMAGE_BYTES } from '../../../src-preload/contract/values';
import { AppFailure } from '../app-error';
import { UploadStaging } from '../install/upload-staging';
import type { McpManager } from '../mcp/mcp-manager';
import { resolveAttachments } from './attachments';

export interface ChatServiceDeps {
  home: string;
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
  /** Chat and approval events for the shells: `emitToHub(core.events)`. */
  emit: (event: ChatEvent | BrokerEvent) => void;
  /** The approvals, caller and tool loading the root composed (compose.ts); the chat builds none of them. */
  calls: { approvals: ApprovalStore; rules: ApprovalSettingsStore; broker: ApprovalBroker; caller: ToolCaller; loading: ToolLoading };
  clock?: Clock;
  /** Where "no key" probes for a local model; Ollama's default. */
  localProbeUrl?: string;
  serverRequestTimeoutMs?: number;
  /** Server resources a person attaches to a message (main reads them itself); none when absent. */
  resources?: Pick<McpManager, 'readResource' | 'resources'>;
}

export class ChatService {
  readonly settings: ChatSettingsStore;
  readonly approvals: ApprovalStore;
  readonly broker: ApprovalBroker;
  readonly conversations: ConversationStore;
  readonly sessions: ChatSessions;
  /** The call path's caller: the chat's tool calls take it like every other caller's. */
  readonly caller: ToolCaller;
  readonly loading: ToolLoading;
  /** Images on their way into the next message, in chunks (web mode's frames are 1 MiB). */
  readonly imageUploads: UploadStaging;
  private readonly clock: Clock;

  constructor(private readonly deps: ChatServiceDeps) {
    this.imageUploads = new UploadStaging(join(deps.home, 'chat-uploads'), MAX_IMAGE_BYTES, { noun: 'image', use: 'attached', extension: '.img' });
    this.clock = deps.clock ?? systemClock;
    this.settings = new ChatSettingsStore(chatSettingsFile(deps.home), deps.logger, this.clock, deps.calls.rules);
    this.conversations = new ConversationStore(conversationsDir(deps.home), deps.logger);
    ({ approvals: this.approvals, broker: this.broker, caller: this.caller, loading: this.loading } = deps.calls);
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
