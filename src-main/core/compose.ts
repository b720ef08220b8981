/**
 * The root's composition (SwitchboardCore's, and a test's that wants the same parts): the one call
 * path — approval store and broker, ToolCaller, call traces, tool loading over the caller's model
 * tools — built once and handed to whoever calls tools (the chat, the tools panel, MCP Apps, the CLI),
 * and the chat over it. Nothing below the root builds any of these.
 */
import type { ServerApproval } from './approvals/approval-policy';
import { ApprovalSettingsStore, approvalSettingsFile } from './approvals/approval-settings';
import { ApprovalBroker, type BrokerEvent } from './approvals/approval-broker';
import { ApprovalStore, approvalsFile, type ServerSource } from './approvals/approval-store';
import { systemClock, type Clock, type Logger, type SecretVault, type UrlOpener } from './ports';
import { createChatHandlers, type ChatHandlers } from './chat/chat-handlers';
import { ChatService, emitToHub } from './chat/chat-service';
import { chatSettingsFile } from './chat/providers/provider-settings';
import type { EventHub } from './event-hub';
import type { McpManager } from './mcp/mcp-manager';
import { ToolCaller, type ToolSource } from './tools/tool-caller';
import { DEFAULT_LOADING_SETTINGS, ToolLoading, type ToolLoadingSettings } from './tools/tool-loading';
import { CallTraces } from './traces/call-traces';

export interface CallPathDeps {
  home: string;
  logger: Logger;
  clock?: Clock;
  /** Where tools come from: the MCP manager (a test may bring SDK clients of its own). */
  source: ToolSource;
  /** Approval events for the shells (emitToHub(core.events)). */
  emit: (event: BrokerEvent) => void;
  /** The `approval` field of the server's config ("ask" when unknown). */
  serverApproval: (server: string) => ServerApproval;
  /** The file that defines the server now: always-allow grants are bound to it (SECURITY V1); by name when absent. */
  serverSource?: (server: string) => ServerSource | undefined;
  /** Budget and pins for tools on demand (the MCP manager's tool settings); the defaults when absent. */
  toolSettings?: ToolLoadingSettings;
  /** Where call traces are kept (and exported); an in-memory one when absent. */
  traces?: CallTraces;
  /** Counting tool tokens starts once this settles: the shells' window first (CoreDeps.holdServersForWindowMs). */
  countAfter?: Promise<unknown>;
}

export interface CallPath {
  approvals: ApprovalStore;
  /** The person's approval rules and read-only switch. */
  rules: ApprovalSettingsStore;
  broker: ApprovalBroker;
  /** The one call path for every caller: the chat, the tools panel, MCP Apps, the CLI. */
  caller: ToolCaller;
  /** Every call's timeline (asked, approved, sent, progress, answered), for the tool card and the server's Logs. */
  traces: CallTraces;
  /** Schema tokens, the budget, and tools on demand over the caller's model tools. */
  loading: ToolLoading;
}

export function composeCallPath(deps: CallPathDeps): CallPath {
  const clock = deps.clock ?? systemClock;
  const approvals = new ApprovalStore(approvalsFile(deps.home), deps.logger, clock, undefined, deps.serverSource);
  // Kept in the chat settings before they had a file of their own: read from there once.
  const rules = new ApprovalSettingsStore(approvalSettingsFile(deps.home), { earlierFile: chatSettingsFile(deps.home), logger: deps.logger, clock });
  const broker = new ApprovalBroker({
    store: approvals,
    settings: () => ({ ...rules.peek(), serverApproval: deps.serverApproval }),
    emit: deps.emit,
    clock,
  });
  const traces = deps.traces ?? new CallTraces({ clock });
  const caller = new ToolCaller({ source: deps.source, broker, traces });
  const loading = new ToolLoading({
    all: () => deps.source.tools(),
    candidates: () => caller.modelTools(),
    settings: deps.toolSettings ?? DEFAULT_LOADING_SETTINGS,
    ...(deps.countAfter ? { countAfter: deps.countAfter } : {}),
  });
  return { approvals, rules, broker, caller, traces, loading };
}

export interface ChatCompositionDeps {
  home: string;
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
  events: EventHub;
  mcp: Pick<McpManager, 'tools' | 'findTool' | 'resolveTool' | 'callServerTool' | 'serverConfig' | 'settings' | 'readResource' | 'resources'>;
  traces?: CallTraces;
  countAfter?: Promise<unknown>;
}

/**
 * The call path over the MCP manager and the chat over it: per-server `approval` from each server's
 * config, the person's approval settings, events on the core's hub. Call `chat.start()` in the core's start().
 */
export function composeChat(deps: ChatCompositionDeps): { calls: CallPath; chat: ChatService; handlers: ChatHandlers } {
  const emit = emitToHub(deps.events);
  const calls = composeCallPath({
    home: deps.home,
    logger: deps.logger,
    source: deps.mcp,
    emit,
    serverApproval: (server) => deps.mcp.serverConfig(server)?.approval ?? 'ask',
    serverSource: (server) => deps.mcp.serverConfig(server)?.source,
    toolSettings: deps.mcp.settings,
    ...(deps.traces ? { traces: deps.traces } : {}),
    ...(deps.countAfter ? { countAfter: deps.countAfter } : {}),
  });
  const chat = new ChatService({ home: deps.home, vault: deps.vault, opener: deps.opener, logger: deps.logger, emit, calls, resources: deps.mcp });
  return { calls, chat, handlers: createChatHandlers(chat) };
}
