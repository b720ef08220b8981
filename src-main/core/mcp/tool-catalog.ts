import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { nameTools, type NameCollision, type ToolKey } from './tool-naming';

/** The one tool type (the SDK's Tool plus server, namespaced name, enabled); defined in the contract so the screen gets it as is. */
export type { CatalogTool };

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

/** Build the catalog from each server's tool list; stable order (server, then tool) and stable names (SECURITY A4). */
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
      ...def,
      inputSchema: patchObjectSchema(def.inputSchema) as Tool['inputSchema'],
      server: entry.server,
      qualifiedName: entry.name,
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
