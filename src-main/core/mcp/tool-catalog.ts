import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { nameTools, type NameCollision, type ToolKey } from './tool-naming';

/** One tool as the chat and the UI see it: namespaced by its server, never merged by name (SECURITY A4). */
export interface CatalogTool {
  /** LLM-safe namespaced name, `<server>__<tool>` unless sanitized or suffixed (see note). */
  name: string;
  server: string;
  /** The server's own name for the tool; what is sent in tools/call. */
  tool: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  enabled: boolean;
  /** Known from the cache; the server has not answered yet. */
  pending: boolean;
  note?: string;
}

export interface CatalogSource {
  server: string;
  prefix?: string;
  tools: Tool[];
  pending: boolean;
}

export interface Catalog {
  tools: CatalogTool[];
  collisions: NameCollision[];
}

/** Build the catalog from each server's tool list; stable order (server, then tool) and stable names. */
export function buildCatalog(sources: CatalogSource[], isEnabled: (server: string, tool: string) => boolean): Catalog {
  const keys: (ToolKey & { def: Tool; pending: boolean })[] = [];
  for (const source of [...sources].sort((a, b) => compare(a.server, b.server))) {
    const seen = new Set<string>();
    for (const def of source.tools) {
      if (seen.has(def.name)) continue; // a server listing one name twice: the first stands
      seen.add(def.name);
      keys.push({ server: source.server, tool: def.name, ...(source.prefix ? { prefix: source.prefix } : {}), def, pending: source.pending });
    }
  }
  const { named, collisions } = nameTools(keys);
  const tools = named.map((entry, i): CatalogTool => {
    const { def, pending } = keys[i]!;
    return {
      name: entry.name,
      server: entry.server,
      tool: entry.tool,
      ...(def.title ? { title: def.title } : {}),
      ...(def.description ? { description: def.description } : {}),
      inputSchema: patchObjectSchema(def.inputSchema),
      ...(def.outputSchema ? { outputSchema: def.outputSchema as Record<string, unknown> } : {}),
      ...(def.annotations ? { annotations: def.annotations as Record<string, unknown> } : {}),
      enabled: isEnabled(entry.server, entry.tool),
      pending,
      ...(entry.note ? { note: entry.note } : {}),
    };
  });
  return { tools, collisions };
}

/** LLM APIs reject an object schema without "properties"; add an empty one (and the type, if missing). */
export function patchObjectSchema(schema: unknown): Record<string, unknown> {
  const base = schema && typeof schema === 'object' && !Array.isArray(schema) ? { ...(schema as Record<string, unknown>) } : {};
  if (base.type === undefined) base.type = 'object';
  if (base.type === 'object' && (typeof base.properties !== 'object' || base.properties === null)) base.properties = {};
  return base;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
