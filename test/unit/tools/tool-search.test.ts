import { describe, expect, it } from 'vitest';
import { fewCopiesFirst, ToolSearchIndex } from '../../../src-main/core/tools/tool-search';
import { argumentText, summaryOf } from '../../../src-main/core/tools/tool-search-text';
import { catalogTool } from '../../support/catalog-tool';

const graph = [
  catalogTool('memory', 'add_observations', { description: 'Add new observations to existing entities in the knowledge graph' }),
  catalogTool('memory', 'delete_observations', { description: 'Delete specific observations from entities in the knowledge graph' }),
  catalogTool('memory', 'search_nodes', { description: 'Search for nodes in the knowledge graph based on a query' }),
];
const files = [
  catalogTool('fs', 'read_text_file', { description: 'Read the complete contents of a file as text.' }),
  catalogTool('fs', 'move_file', { description: 'Move or rename files and directories.' }),
  catalogTool('fs', 'get_file_info', { description: 'Retrieve detailed metadata about a file or directory: size, times, permissions.' }),
  catalogTool('fs', 'copy_tree', { description: 'Copy a directory tree. Unlike a move, the source stays where it is, so nothing is moved or renamed.' }),
];
const names = (tools: { name: string }[]) => tools.map((t) => t.name);

describe('the tool search reaches tools through meaning, not only words', () => {
  it('reads a fact that stopped holding as a delete (the action lexicon)', () => {
    const index = new ToolSearchIndex(graph);
    expect(names(index.search('Dana no longer speaks French', 1))).toEqual(['delete_observations']);
    // Without the phrase, nothing asks to delete.
    expect(names(index.search('Dana speaks French', 3))).not.toContain('delete_observations');
  });

  it("ranks a tool whose name's verb does what is asked above one that only mentions the words", () => {
    const index = new ToolSearchIndex(files);
    expect(names(index.search('relocate the report', 2))[0]).toBe('move_file');
  });

  it('widens a query with WordNet words a tool has, looked for in its names and first sentence only', () => {
    const index = new ToolSearchIndex(files);
    // "relocate" is a kind of "move" (a WordNet hypernym); copy_tree says "moved" only past its first sentence.
    expect(index.queryTerms('relocate').weights.get('move')).toBeLessThan(1);
    expect(names(index.search('relocate', 4))).toEqual(['move_file']);
    // A WordNet word no tool has is not added.
    expect([...index.queryTerms('relocate').weights.keys()]).not.toContain('displac');
  });

  it('takes a file name for a file and its kind', () => {
    const index = new ToolSearchIndex([catalogTool('memory', 'read_graph', { description: 'Read the knowledge graph' }), ...files]);
    expect(names(index.search('read main.py', 1))).toEqual(['read_text_file']);
    expect(index.queryTerms('read main.py').weights.get('file')).toBeLessThan(1);
  });

  it('counts the query\'s own words above the words added for it', () => {
    const { weights } = new ToolSearchIndex(graph).queryTerms('remove Dana');
    expect(weights.get('remov')).toBe(1);
    expect(weights.get('delet')).toBeGreaterThan(0);
    expect(weights.get('delet')).toBeLessThan(1);
  });
});

describe('what the search indexes', () => {
  it('holds argument names, descriptions and enum values at any depth', () => {
    const text = argumentText({
      type: 'object',
      properties: {
        action: { type: 'string', enum: ['fill_form', 'zoom'], description: 'What to do' },
        relations: { type: 'array', items: { type: 'object', properties: { relationType: { type: 'string', description: 'The type of the relation' } } } },
      },
    });
    for (const word of ['fill form', 'zoom', 'What to do', 'relation Type', 'The type of the relation']) expect(text).toContain(word);
    expect(argumentText({ type: 'object' })).toBe('');
  });

  it('finds a multi-purpose tool by one of its enum actions', () => {
    const index = new ToolSearchIndex([
      catalogTool('pdf', 'interact', { description: 'Interact with a viewer', inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['zoom', 'fill_form'] } } } }),
      catalogTool('pdf', 'list_pdfs', { description: 'List available PDFs' }),
    ]);
    expect(names(index.search('fill in the form', 1))).toEqual(['interact']);
  });

  it("keeps a description's first sentence apart", () => {
    expect(summaryOf('Move files. Both paths must be allowed.')).toBe('Move files');
    expect(summaryOf('Returns the time as an ISO 8601 string.')).toBe('Returns the time as an ISO 8601 string');
    expect(summaryOf('No full stop\nSecond line')).toBe('No full stop');
    expect(summaryOf('')).toBe('');
  });
});

describe('copies of one tool on many servers', () => {
  it('rank at most two before every other tool', () => {
    const copies = ['a', 'b', 'c', 'd'].map((server) => catalogTool(server, 'read_file'));
    const other = catalogTool('e', 'write_file');
    expect(fewCopiesFirst([...copies, other]).map((t) => t.qualifiedName)).toEqual(['a__read_file', 'b__read_file', 'e__write_file', 'c__read_file', 'd__read_file']);
  });

  it('apply in the search: the second guess is not pushed out by copies of the first', () => {
    const copies = ['a', 'b', 'c', 'd', 'e'].map((server) => catalogTool(server, 'read_text_file', { description: 'Read the complete contents of a file as text.' }));
    const index = new ToolSearchIndex([...copies, catalogTool('f', 'read_media_file', { description: 'Read an image or audio file.' })]);
    expect(names(index.search('read a file', 3))).toContain('read_media_file');
  });
});
