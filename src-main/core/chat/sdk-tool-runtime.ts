import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ContentBlock, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppFailure } from '../app-error';
import { namespacedToolName, type CatalogTool, type ToolCallOptions, type ToolResult, type ToolRuntime } from './tool-runtime';

export interface ConnectedServer {
  server: string;
  client: Client;
}

/**
 * ToolRuntime over SDK Clients that are already connected. `refresh()` reads each server's
 * tools/list; the MCP manager's catalog does the same job for the whole app.
 */
export class SdkToolRuntime implements ToolRuntime {
  private catalog: Array<CatalogTool & { client: Client }> = [];

  constructor(private readonly servers: ConnectedServer[]) {}

  async refresh(): Promise<void> {
    const next: Array<CatalogTool & { client: Client }> = [];
    for (const { server, client } of this.servers) {
      const { tools } = await client.listTools();
      for (const tool of tools) next.push({ ...toCatalogTool(server, tool), client });
    }
    this.catalog = next;
  }

  listTools(): CatalogTool[] {
    return this.catalog.map(({ client: _client, ...tool }) => tool);
  }

  async callTool(name: string, args: Record<string, unknown>, options: ToolCallOptions): Promise<ToolResult> {
    const entry = this.catalog.find((t) => t.name === name);
    if (!entry) throw new AppFailure('not_found', `no tool named "${name}" is available`);
    const result = await entry.client.callTool({ name: entry.tool, arguments: args }, undefined, {
      signal: options.controller.signal,
      onprogress: (p) => options.onProgress({ progress: p.progress, ...(p.total !== undefined ? { total: p.total } : {}), ...(p.message !== undefined ? { message: p.message } : {}) }),
      resetTimeoutOnProgress: true,
    });
    if (!('content' in result)) return { content: [{ type: 'text', text: JSON.stringify(result.toolResult) }], isError: false };
    return {
      content: result.content as ContentBlock[],
      ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
      isError: result.isError === true,
    };
  }
}

export function toCatalogTool(server: string, tool: Tool): CatalogTool {
  const title = tool.title ?? tool.annotations?.title;
  return {
    name: namespacedToolName(server, tool.name),
    server,
    tool: tool.name,
    ...(title !== undefined ? { title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    annotations: { ...(tool.annotations ?? {}) },
  };
}
