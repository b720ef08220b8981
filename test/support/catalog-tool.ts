import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CatalogTool } from '../../src-preload/contract/tools';

/** A catalog entry as buildCatalog makes one: the server's Tool plus server, `<server>__<tool>`, enabled. */
export function catalogTool(server: string, name: string, fields: Partial<Omit<Tool, 'name'>> = {}): CatalogTool {
  return { inputSchema: { type: 'object' }, annotations: {}, ...fields, name, server, qualifiedName: `${server}__${name}`, enabled: true, pending: false };
}
