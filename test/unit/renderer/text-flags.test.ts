import { describe, expect, it } from 'vitest';
import { hiddenCharactersLabel } from '../../../src-renderer/lib/chat/text-flags';

describe('hiddenCharactersLabel', () => {
  it('counts one character in the singular and more in the plural', () => {
    expect(hiddenCharactersLabel(1, 'zero_width')).toBe('1 zero-width character');
    expect(hiddenCharactersLabel(2, 'zero_width')).toBe('2 zero-width characters');
    expect(hiddenCharactersLabel(1, 'bidi_control')).toBe('1 text-direction (bidi) control');
    expect(hiddenCharactersLabel(9, 'unicode_tags')).toBe('9 invisible Unicode tag characters');
  });
});
