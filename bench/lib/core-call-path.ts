import type { ToolResult } from '../../src-preload/contract/tools';
import type { SwitchboardCore } from '../../src-main/core/switchboard-core';
import { CallCancel } from '../../src-main/core/mcp/call-cancel';

/**
 * Compiled into the shipped build with the core (shipped-entry.ts): it is timed as Switchboard's side.
 *
 * One tool call the way the chat makes it in main (ChatSessions.runCall), minus the model and the
 * tool-card events: the round's tool list (ToolCaller.modelTools), then the one call path
 * (ToolCaller.call, origin "model": lookup, enabled, visibility, schema check, the core's
 * ApprovalBroker — the server is set to approval "auto", so the policy allows without a person —
 * then McpManager.callServerTool and the capped result).
 */
export class CoreCallPath {
  constructor(private readonly core: SwitchboardCore) {}

  async call(qualifiedName: string, args: Record<string, unknown>): Promise<ToolResult> {
    const { caller } = this.core.chat;
    caller.modelTools();
    // One controller per call, as the chat gives each call its own cancel.
    const outcome = await caller.call({ qualifiedName }, args, { origin: 'model', controller: new CallCancel(), onProgress: () => {} });
    if (outcome.kind !== 'done') throw new Error(`the call of ${qualifiedName} did not run: ${JSON.stringify(outcome)}`);
    return outcome.result;
  }

  /**
   * The core's own SDK Client for a server, for the bridge's floor: the same server process the
   * bridge reaches, called with Client.callTool and no Switchboard code. (Bracket access: clientFor
   * is the manager's private way to a connected client; the bench is its only outside user.)
   */
  sdkClient(server: string) {
    return this.core.mcp['clientFor'](server);
  }
}
