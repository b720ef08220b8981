import { describe, expect, it } from 'vitest';
import type { ToolResultPart } from '../../../src-preload/contract/tool-run';
import { textCarriesStructured } from '../../../src-main/core/mcp/structured-text';

const weather = { temperature: 33, conditions: 'Cloudy', humidity: 82 };
const text = (t: string): ToolResultPart => ({ type: 'text', text: t });

describe('textCarriesStructured', () => {
  it.each<[string, ToolResultPart[], boolean]>([
    ['the serialized copy the spec asks servers to send', [text(JSON.stringify(weather))], true],
    ['the same JSON pretty-printed, keys in another order', [text(JSON.stringify({ humidity: 82, conditions: 'Cloudy', temperature: 33 }, null, 2))], true],
    ['the copy among other parts', [text('Weather for New York:'), text(JSON.stringify(weather))], true],
    ['a summary in words', [text('33 °C and cloudy in New York')], false],
    ['a different JSON value', [text(JSON.stringify({ ...weather, humidity: 81 }))], false],
    ['text that is not JSON', [text('{temperature: 33')], false],
    ['no text at all', [{ type: 'image', mimeType: 'image/png', data: 'AAAA' }], false],
  ])('%s → %s', (_what, content, carried) => {
    expect(textCarriesStructured(content, weather)).toBe(carried);
  });
});
