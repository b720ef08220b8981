import { describe, expect, it } from 'vitest';
import { formatRules, parseRules } from '../../../src-renderer/lib/chat/rules-text';

describe('parseRules', () => {
  it('reads one "pattern: effect" per line, skipping blanks and comments', () => {
    expect(parseRules('github__*: allow\n\n# careful\n*__delete_*: ask\nfs__write: deny')).toEqual({
      ok: true,
      rules: [
        { pattern: 'github__*', effect: 'allow' },
        { pattern: '*__delete_*', effect: 'ask' },
        { pattern: 'fs__write', effect: 'deny' },
      ],
    });
  });

  it('names the line at fault', () => {
    expect(parseRules('a: allow\nb allow')).toEqual({ ok: false, error: 'rule on line 2 needs the form "pattern: allow|ask|deny"' });
    expect(parseRules(': ask')).toEqual({ ok: false, error: 'rule on line 1 has no pattern' });
    expect(parseRules('x: maybe')).toEqual({ ok: false, error: 'rule on line 1: "maybe" is not allow, ask or deny' });
    expect(parseRules(`${'p'.repeat(201)}: ask`)).toEqual({ ok: false, error: 'rule on line 1: the pattern is over 200 characters' });
  });

  it('round-trips with formatRules', () => {
    const rules = [{ pattern: 'a__*', effect: 'allow' as const }, { pattern: '*', effect: 'ask' as const }];
    expect(parseRules(formatRules(rules))).toEqual({ ok: true, rules });
  });
});
