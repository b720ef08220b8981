import { nestResource } from '../../../src-preload/contract/tool-run';
import type { McpManager } from '../mcp/mcp-manager';
import type { CatalogTool, ToolResult, ToolRuntime } from './tool-runtime';

/** The chat's ToolRuntime port over the MCP manager's catalog: enabled tools only, calls by namespaced name. */
export function managerToolRuntime(manager: Pick<McpManager, 'tools' | 'callTool'>): ToolRuntime & { findTool(name: string): CatalogTool | undefined } {
  // manager.tools() returns the same array until the catalog changes: rebuild only then.
  let source: ReturnType<McpManager['tools']> | undefined;
  let listed: CatalogTool[] = [];
  let byName = new Map<string, CatalogTool>();
  const listTools = (): CatalogTool[] => {
    const current = manager.tools();
    if (current !== source) {
      source = current;
      listed = toCatalog(current);
      byName = new Map(listed.map((t) => [t.name, t]));
    }
    return listed;
  };
  return {
    listTools,
    /** An enabled tool of the current catalog by its namespaced name. */
    findTool: (name) => {
      listTools();
      return byName.get(name);
    },
    callTool: async (name, args, { controller, onProgress }): Promise<ToolResult> => {
      const result = await manager.callTool(name, args, { controller, onProgress });
      return {
        content: result.content.map(nestResource),
        ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
        isError: result.isError,
      };
    },
  };
}

function toCatalog(tools: ReturnType<McpManager['tools']>): CatalogTool[] {
  return tools
    .filter((t) => t.enabled)
    .map((t) => ({
      name: t.name,
      server: t.server,
      tool: t.tool,
      ...(t.title !== undefined ? { title: t.title } : {}),
      description: t.description ?? '',
      inputSchema: t.inputSchema,
      annotations: { ...(t.annotations ?? {}) },
    }));
}
