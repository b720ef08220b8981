/**
 * The search tool offered to the model when tools load on demand. It runs in Switchboard (it
 * reads the catalog, reaches no server), so it needs no approval; what it finds is loaded for
 * the rest of the conversation, and calling a found tool takes the ToolCaller's path as always.
 */
import type { LoadedTool } from '../../../src-preload/contract/chat';
import type { ModelTool } from './model-tool';
import { loadedTool, type ToolLoading } from './tool-loading';

/** Never a catalog name: those always hold "__" between server and tool. */
export const FIND_TOOLS = 'find_tools';
export const FIND_TOOLS_DEFAULT_LIMIT = 5;
const MAX_LIMIT = 10;
const DESCRIPTION_CHARS = 300;

export const FIND_TOOLS_DEFINITION: ModelTool = {
  name: FIND_TOOLS,
  description:
    "Search the user's MCP tools that you have not been given yet. Say in a few words what you want to do (e.g. \"read a file\", \"create a graph entity\"). The best matches are loaded for the rest of this conversation: you can call them on your next step.",
  inputSchema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What the tool should do, in a few words.' },
      limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `How many tools to load (default ${FIND_TOOLS_DEFAULT_LIMIT}).` },
    },
    required: ['query'],
  },
};

export type FindToolsOutcome = { ok: true; query: string; loaded: LoadedTool[]; textForModel: string } | { ok: false; error: string };

/** Runs the model's search: checks its arguments, searches, and says what was loaded. */
export function runFindTools(loading: Pick<ToolLoading, 'search'>, args: Record<string, unknown>): FindToolsOutcome {
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (!query) return { ok: false, error: `${FIND_TOOLS} needs a non-empty "query" string` };
  const limit = args.limit === undefined ? FIND_TOOLS_DEFAULT_LIMIT : args.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    return { ok: false, error: `${FIND_TOOLS}: "limit" must be a whole number from 1 to ${MAX_LIMIT}` };
  }
  const found = loading.search(query.slice(0, 500), limit);
  if (found.length === 0) return { ok: true, query, loaded: [], textForModel: `No tool matches "${query}". Try other words.` };
  const lines = found.map((t) => `- ${t.qualifiedName} (server "${t.server}"): ${oneLine(t.description ?? t.title ?? '')}`);
  return {
    ok: true,
    query,
    loaded: found.map(loadedTool),
    textForModel: `Loaded ${found.length} tool${found.length === 1 ? '' : 's'} for this conversation; call them by these names:\n${lines.join('\n')}`,
  };
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > DESCRIPTION_CHARS ? `${flat.slice(0, DESCRIPTION_CHARS)}…` : flat;
}
