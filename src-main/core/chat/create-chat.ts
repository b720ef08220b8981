import type { EventHub } from '../event-hub';
import type { McpManager } from '../mcp/mcp-manager';
import type { Logger, SecretVault, UrlOpener } from '../ports';
import type { CallTraces } from '../traces/call-traces';
import { createChatHandlers, type ChatHandlers } from './chat-handlers';
import { ChatService, emitToHub } from './chat-service';

export interface CreateChatDeps {
  home: string;
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
  events: EventHub;
  mcp: Pick<McpManager, 'tools' | 'findTool' | 'resolveTool' | 'callServerTool' | 'serverConfig' | 'settings' | 'readResource' | 'resources'>;
  localProbeUrl?: string;
  traces?: CallTraces;
  backgroundAfter?: Promise<unknown>;
}

/**
 * The chat as the core uses it: tools from the MCP manager's catalog, per-server `approval` from
 * each server's config, events on the core's hub. Call `service.start()` in the core's start().
 */
export function createChat(deps: CreateChatDeps): { service: ChatService; handlers: ChatHandlers } {
  const service = new ChatService({
    home: deps.home,
    vault: deps.vault,
    opener: deps.opener,
    logger: deps.logger,
    emit: emitToHub(deps.events),
    tools: deps.mcp,
    resources: deps.mcp,
    toolSettings: deps.mcp.settings,
    serverApproval: (server) => deps.mcp.serverConfig(server)?.approval ?? 'ask',
    ...(deps.localProbeUrl ? { localProbeUrl: deps.localProbeUrl } : {}),
    ...(deps.traces ? { traces: deps.traces } : {}),
    ...(deps.backgroundAfter ? { backgroundAfter: deps.backgroundAfter } : {}),
  });
  return { service, handlers: createChatHandlers(service) };
}
