/**
 * The tool caller's source over SDK Clients a test connected itself — in-memory servers whose tool
 * definitions the test changes (rug pull, poisoning). The app's source is the MCP manager; this one
 * builds its catalog and maps results with the same production functions.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AppFailure } from '../../src-main/core/app-error';
import { capCallResult } from '../../src-main/core/mcp/call-result';
import { requestSignal } from '../../src-main/core/mcp/call-cancel';
import type { CallOptions } from '../../src-main/core/mcp/call-vocabulary';
import { buildCatalog, type CatalogTool } from '../../src-main/core/mcp/tool-catalog';
import type { ToolSource } from '../../src-main/core/tools/tool-caller';
import type { ToolRef, ToolResult } from '../../src-preload/contract/tools';

export class SdkToolSource implements ToolSource {
  private catalog: CatalogTool[] = [];

  constructor(private readonly servers: { server: string; client: Client }[]) {}

  /** Reads each server's tools/list again (after a test changed a definition). */
  async refresh(): Promise<void> {
    const sources = [];
    for (const { server, client } of this.servers) sources.push({ server, tools: (await client.listTools()).tools, pending: false });
    this.catalog = buildCatalog(sources, () => true).tools;
  }

  tools(): CatalogTool[] {
    return this.catalog;
  }

  findTool(ref: ToolRef): CatalogTool | undefined {
    return 'qualifiedName' in ref ? this.catalog.find((t) => t.qualifiedName === ref.qualifiedName) : this.catalog.find((t) => t.server === ref.server && t.name === ref.tool);
  }

  async resolveTool(ref: ToolRef): Promise<CatalogTool> {
    const found = this.findTool(ref);
    if (!found) throw new AppFailure('not_found', `no tool named "${'qualifiedName' in ref ? ref.qualifiedName : ref.tool}"`);
    return found;
  }

  async callServerTool(server: string, tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolResult> {
    const client = this.servers.find((s) => s.server === server)!.client;
    const raw = await client.callTool({ name: tool, arguments: args }, undefined, {
      ...(options.controller ? { signal: requestSignal(options.controller.signal) } : {}),
      ...(options.onProgress ? { onprogress: options.onProgress } : {}),
      resetTimeoutOnProgress: true,
    });
    return capCallResult(raw);
  }
}
