/**
 * One tool model and one result type, from the server to the screen. A tool is the SDK's `Tool`
 * exactly as its server listed it (`_meta`, `annotations`, `icons`, `outputSchema`, `title` kept)
 * plus where it lives in Switchboard; a result is the SDK's `CallToolResult` with resources nested
 * as MCP sends them, plus how much oversized text was cut. Nothing reshapes either on the way.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';

/** Who asks for a tool call; every caller goes through the same checks (enabled, visible, schema, approval). */
export type CallOrigin = 'model' | 'person' | 'app' | 'cli';

/** MCP Apps `_meta.ui.visibility`: who may see and call a tool. Absent means both. */
export type ToolAudience = 'model' | 'app';

export interface CatalogTool extends Tool {
  /** The server's own name for the tool (`Tool.name`): what tools/call sends. */
  name: string;
  /** The owning server, always shown (SECURITY A4). */
  server: string;
  /** LLM-safe namespaced name offered to models: `<server>__<tool>` unless sanitized or suffixed (`note` says why). */
  qualifiedName: string;
  /** The person's switch in the tools list; a disabled tool refuses every caller. */
  enabled: boolean;
  /** Known from the cache; the server has not answered yet. */
  pending: boolean;
  note?: string;
}

/** A tool result: the SDK's own shape, with the characters cut from oversized text counted. */
export type ToolResult = CallToolResult & { truncatedChars: number };

/** A reference to a tool: by the server's own name, or by the namespaced name a model used. */
export type ToolRef = { server: string; tool: string } | { qualifiedName: string };

/** `_meta.ui` of a tool (MCP Apps): the `ui://` resource that renders its results, and who may call it. */
export interface ToolUi {
  resourceUri?: string;
  visibility: ToolAudience[];
}

const AUDIENCES: readonly ToolAudience[] = ['model', 'app'];

/** Reads `_meta.ui` (and the older flat `_meta["ui/resourceUri"]`); anything malformed counts as absent. */
export function toolUi(tool: Pick<Tool, '_meta'>): ToolUi {
  const meta = tool._meta ?? {};
  const ui = isRecord(meta.ui) ? meta.ui : {};
  const uri = typeof ui.resourceUri === 'string' ? ui.resourceUri : typeof meta['ui/resourceUri'] === 'string' ? meta['ui/resourceUri'] : undefined;
  const listed = Array.isArray(ui.visibility) ? ui.visibility.filter((v): v is ToolAudience => AUDIENCES.includes(v as ToolAudience)) : undefined;
  return {
    ...(uri !== undefined && uri.startsWith('ui://') ? { resourceUri: uri } : {}),
    visibility: listed && listed.length > 0 ? listed : [...AUDIENCES],
  };
}

/** May this caller reach the tool? Apps only reach tools made visible to apps; models only tools visible to the model. */
export function visibleTo(tool: Pick<Tool, '_meta'>, origin: CallOrigin): boolean {
  if (origin !== 'model' && origin !== 'app') return true;
  return toolUi(tool).visibility.includes(origin);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
