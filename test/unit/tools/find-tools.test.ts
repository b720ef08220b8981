import { describe, expect, it } from 'vitest';
import { FIND_TOOLS, FIND_TOOLS_DEFINITION, runFindTools } from '../../../src-main/core/tools/find-tools';
import { TOOL_NAME_PATTERN } from '../../../src-main/core/mcp/tool-naming';
import { ToolSearchIndex, splitWords } from '../../../src-main/core/tools/tool-search';
import { catalogTool } from '../../support/catalog-tool';

const tools = [
  catalogTool('files', 'read_text_file', { description: 'Read the complete contents of a file from the file system as text.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, head: { type: 'number', description: 'only the first N lines' } } } }),
  catalogTool('memory', 'create_entities', { description: 'Create multiple new entities in the knowledge graph', inputSchema: { type: 'object', properties: { entities: { type: 'array' } } } }),
  catalogTool('everything', 'getTinyImage', { title: 'Tiny image', description: 'Returns a small picture', inputSchema: { type: 'object', properties: {} } }),
  catalogTool('monitor', 'get_system_stats', { description: 'CPU, memory and disk usage of this machine', inputSchema: { type: 'object', properties: { intervalMs: { type: 'number' } } } }),
];
const index = new ToolSearchIndex(tools);
const search = { search: (q: string, n: number) => index.search(q, n) };

describe('the search tool (find_tools)', () => {
  it('has a name no catalog tool can take, and a valid tool name for every provider', () => {
    expect(FIND_TOOLS).not.toContain('__');
    expect(FIND_TOOLS_DEFINITION.name).toMatch(TOOL_NAME_PATTERN);
  });

  it('loads the matches and tells the model their names and servers', () => {
    const found = runFindTools(search, { query: 'read a file', limit: 1 });
    expect(found).toEqual({
      ok: true,
      query: 'read a file',
      loaded: [{ name: 'files__read_text_file', server: 'files', tool: 'read_text_file' }],
      textForModel: 'Loaded 1 tool for this conversation; call them by these names:\n- files__read_text_file (server "files"): Read the complete contents of a file from the file system as text.',
    });
  });

  it('refuses a missing query and a bad limit with the exact reason', () => {
    expect(runFindTools(search, {})).toEqual({ ok: false, error: 'find_tools needs a non-empty "query" string' });
    expect(runFindTools(search, { query: '   ' })).toEqual({ ok: false, error: 'find_tools needs a non-empty "query" string' });
    expect(runFindTools(search, { query: 'x', limit: 0 })).toEqual({ ok: false, error: 'find_tools: "limit" must be a whole number from 1 to 10' });
    expect(runFindTools(search, { query: 'x', limit: 2.5 })).toEqual({ ok: false, error: 'find_tools: "limit" must be a whole number from 1 to 10' });
  });

  it('says so when nothing matches, loading nothing', () => {
    expect(runFindTools(search, { query: 'zzzqqq' })).toEqual({ ok: true, query: 'zzzqqq', loaded: [], textForModel: 'No tool matches "zzzqqq". Try other words.' });
  });
});

describe('ToolSearchIndex', () => {
  it('matches camelCase and snake_case names, titles, descriptions and argument names', () => {
    expect(splitWords('getTinyImage')).toBe('get Tiny Image');
    expect(index.search('tiny image', 1)[0]!.name).toBe('getTinyImage');
    expect(index.search('knowledge graph entity', 1)[0]!.name).toBe('create_entities');
    expect(index.search('disk usage', 1)[0]!.name).toBe('get_system_stats');
    expect(index.search('interval ms', 1)[0]!.name).toBe('get_system_stats');
  });

  it('stems words and widens a query with synonyms, the query\'s own words counting more', () => {
    expect(index.search('entity', 1)[0]!.name).toBe('create_entities');
    expect(index.search('picture', 1)[0]!.name).toBe('getTinyImage');
    expect(index.search('machine', 1)[0]!.name).toBe('get_system_stats');
    // "document" is a synonym of "file", but a tool with the asked word itself ranks first.
    const docs = new ToolSearchIndex([catalogTool('a', 'open_document', { description: 'Opens a document' }), catalogTool('b', 'open_file', { description: 'Opens a file' })]);
    expect(docs.search('open file', 2).map((t) => t.name)).toEqual(['open_file', 'open_document']);
  });
});
