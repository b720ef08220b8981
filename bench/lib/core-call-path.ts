import { join } from 'node:path';
import { ApprovalBroker } from '../../src-main/core/approvals/approval-broker';
import { ApprovalStore } from '../../src-main/core/approvals/approval-store';
import type { CatalogTool as ChatTool } from '../../src-main/core/chat/tool-runtime';
import type { ToolCallResult } from '../../src-main/core/mcp/call-result';
import type { CatalogTool } from '../../src-main/core/mcp/tool-catalog';
import type { SwitchboardCore } from '../../src-main/core/switchboard-core';

/** The chat's view of a catalog tool (the approval policy reads description and annotations as given). */
export function chatTool(tool: CatalogTool): ChatTool {
  return {
    name: tool.name,
    server: tool.server,
    tool: tool.tool,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    annotations: { ...(tool.annotations ?? {}) },
  };
}

/**
 * One tool call the way the chat makes it in main: look the tool up in the catalog, ask the
 * approval broker (policy: the server is set to approval "auto", so it allows without a person),
 * call through the manager, get the mapped result. The chat's own wiring does not exist yet
 * (issue 6); this is the same sequence over the pieces that do.
 */
export class CoreCallPath {
  private readonly broker: ApprovalBroker;
  private chatCatalogFor: CatalogTool[] | undefined;
  private chatCatalog: ChatTool[] = [];

  constructor(private readonly core: SwitchboardCore, home: string) {
    const store = new ApprovalStore(join(home, 'approvals.json'));
    this.broker = new ApprovalBroker({
      store,
      settings: () => ({
        rules: [],
        autoAllowReadOnly: false,
        serverApproval: (server) => this.core.mcp.status(server)?.config.approval ?? 'ask',
      }),
      emit: () => {},
    });
  }

  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolCallResult> {
    const catalog = this.core.mcp.tools();
    if (catalog !== this.chatCatalogFor) {
      this.chatCatalogFor = catalog;
      this.chatCatalog = catalog.map(chatTool);
    }
    const tool = this.chatCatalog.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool named "${name}" in the catalog`);
    const verdict = await this.broker.requestToolCall({ tool, args, catalog: this.chatCatalog, signal });
    if (verdict.kind !== 'run') throw new Error(`the approval policy did not allow ${name}: ${JSON.stringify(verdict)}`);
    return this.core.mcp.callTool(name, verdict.args, { signal });
  }
}
