import type { HiddenCategory } from '../../../src-preload/contract/chat';

const NOUNS: Record<HiddenCategory, [one: string, many: string]> = {
  unicode_tags: ['invisible Unicode tag character', 'invisible Unicode tag characters'],
  zero_width: ['zero-width character', 'zero-width characters'],
  bidi_control: ['text-direction (bidi) control', 'text-direction (bidi) controls'],
};

/** "1 zero-width character", "3 zero-width characters". */
export function hiddenCharactersLabel(count: number, category: HiddenCategory): string {
  const [one, many] = NOUNS[category];
  return `${count} ${count === 1 ? one : many}`;
}
