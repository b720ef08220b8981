import type { ApprovalBroker } from '../../src-main/core/approvals/approval-broker';
import type { ToolResult, ToolRuntime } from '../../src-main/core/chat/tool-runtime';
import type { SwitchboardCore } from '../../src-main/core/switchboard-core';
import { managerToolRuntime } from '../../src-main/core/chat/manager-tool-runtime';

/**
 * Compiled into the shipped build with the core (shipped-entry.ts): it is timed as Switchboard's side.
 *
 * One tool call the way the chat makes it in main (ChatSessions.run / runCall), minus the model and
 * the tool-card events: the round's catalog (ToolRuntime.listTools over the manager), the tool
 * looked up by name, the core's ApprovalBroker (the server is set to approval "auto", so the
 * policy allows without a person), then ToolRuntime.callTool → McpManager.callTool → mapped result.
 */
export class CoreCallPath {
  private readonly runtime: ToolRuntime;
  private readonly broker: ApprovalBroker;

  constructor(core: SwitchboardCore) {
    this.runtime = managerToolRuntime(core.mcp);
    this.broker = core.chat.broker;
  }

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const tools = this.runtime.listTools();
    const tool = tools.find((t) => t.name === name);
    if (!tool) throw new Error(`no tool named "${name}" in the catalog`);
    // One controller per call, as the chat gives each call its own cancel.
    const controller = new AbortController();
    const verdict = await this.broker.requestToolCall({ tool, args, catalog: tools, signal: controller.signal });
    if (verdict.kind !== 'run') throw new Error(`the approval policy did not allow ${name}: ${JSON.stringify(verdict)}`);
    return this.runtime.callTool(tool.name, verdict.args, { controller, onProgress: () => {} });
  }
}
