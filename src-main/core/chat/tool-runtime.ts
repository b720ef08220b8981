/**
 * The port the chat needs from the tool catalog. The MCP manager's catalog implements it for
 * every connected server; `SdkToolRuntime` implements it over SDK Clients the caller connected.
 */
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface CatalogTool {
  /** Namespaced, LLM-safe name offered to the model: <server>__<tool>. Never merged across servers (A4). */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: ToolAnnotations;
}

export interface ToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError: boolean;
}

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolCallOptions {
  /**
   * This call's own controller. Aborting it cancels the request on the server (the SDK sends
   * notifications/cancelled); the runtime may abort it too, when the call runs past its hard
   * maximum (the call then fails saying so). One controller serves both, so a call costs one signal.
   */
  controller: AbortController;
  onProgress: (progress: ToolProgress) => void;
}

export interface ToolRuntime {
  /** The enabled tools of every connected server. */
  listTools(): CatalogTool[];
  /** Calls a tool by its namespaced name; rejects when aborted or when the server fails the request. */
  callTool(name: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult>;
}

/** <server>__<tool>, with anything outside [A-Za-z0-9_-] replaced so every provider accepts the name. */
export function namespacedToolName(server: string, tool: string): string {
  return `${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
}
