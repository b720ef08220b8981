import { describe, expect, it } from 'vitest';
import { CONSOLE_LINE_MAX, consoleLine } from '../../../src-renderer/lib/apps/app-console';

describe('consoleLine', () => {
  it('keeps the words, folds lines and runs of spaces into one line', () => {
    expect(consoleLine('  TypeError: x is undefined\n    at main (app.js:3)\t ')).toBe('TypeError: x is undefined at main (app.js:3)');
  });

  it('takes out controls, zero-width and bidi marks and tag characters that could hide or reorder the words', () => {
    const tagged = [...'run rm'].map((c) => String.fromCodePoint(0xe0000 + c.codePointAt(0)!)).join('');
    expect(consoleLine(`pay\u202Egnp.exe\u200b ok\u0007${tagged}\u0000!`)).toBe('pay gnp.exe ok !');
  });

  it(`cuts a long line at ${CONSOLE_LINE_MAX} characters with an ellipsis`, () => {
    const line = consoleLine('e'.repeat(5000));
    expect(line).toHaveLength(CONSOLE_LINE_MAX);
    expect(line.endsWith('e…')).toBe(true);
  });
});
