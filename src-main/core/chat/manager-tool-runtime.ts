import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ResultPart } from '../mcp/call-result';
import type { McpManager } from '../mcp/mcp-manager';
import type { CatalogTool, ToolResult, ToolRuntime } from './tool-runtime';

/** The chat's ToolRuntime port over the MCP manager's catalog: enabled tools only, calls by namespaced name. */
export function managerToolRuntime(manager: Pick<McpManager, 'tools' | 'callTool'>): ToolRuntime {
  return {
    listTools: (): CatalogTool[] =>
      manager
        .tools()
        .filter((t) => t.enabled)
        .map((t) => ({
          name: t.name,
          server: t.server,
          tool: t.tool,
          ...(t.title !== undefined ? { title: t.title } : {}),
          description: t.description ?? '',
          inputSchema: t.inputSchema,
          annotations: { ...(t.annotations ?? {}) },
        })),
    callTool: async (name, args, { signal, onProgress }): Promise<ToolResult> => {
      const result = await manager.callTool(name, args, { signal, onProgress });
      return {
        content: result.content.map(toContentBlock),
        ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
        isError: result.isError,
      };
    },
  };
}

function toContentBlock(part: ResultPart): ContentBlock {
  if (part.type !== 'resource') return part;
  const { uri, mimeType, text, blob } = part;
  const base = { uri, ...(mimeType !== undefined ? { mimeType } : {}) };
  return { type: 'resource', resource: text !== undefined ? { ...base, text } : { ...base, blob: blob ?? '' } };
}
