import { describe, expect, it } from 'vitest';
import { MASKED_VALUE } from '../../../src-preload/contract/values';
import { maskEntry, unmaskEntry } from '../../../src-main/core/config/entry-mask';

describe('maskEntry', () => {
  it('masks literal env and header values, keeps references, keys and every other field', () => {
    const entry = { command: 'x', args: ['--a'], env: { TOKEN: 'abc', REF: '${secret:T}', MIX: 'Bearer ${secret:T}' }, headers: { Authorization: 'Bearer sk' } };
    expect(maskEntry(entry)).toEqual({
      command: 'x',
      args: ['--a'],
      env: { TOKEN: MASKED_VALUE, REF: '${secret:T}', MIX: 'Bearer ${secret:T}' },
      headers: { Authorization: MASKED_VALUE },
    });
    expect(entry.env.TOKEN).toBe('abc'); // the stored entry is not changed
  });

  it('masks non-string values too, so nothing literal slips through', () => {
    expect(maskEntry({ env: { N: 5 } })).toEqual({ env: { N: MASKED_VALUE } });
  });
});

describe('unmaskEntry', () => {
  it('puts stored values back where the mask came back', () => {
    expect(unmaskEntry('s', { env: { A: MASKED_VALUE, B: 'new' } }, { env: { A: 'old-a', B: 'old-b' } })).toEqual({ env: { A: 'old-a', B: 'new' } });
  });

  it('refuses a mask with no stored value', () => {
    expect(() => unmaskEntry('s', { headers: { H: MASKED_VALUE } }, { headers: {} })).toThrow(
      'server "s": "headers.H" is masked but servers.json has no value for it; type the value',
    );
  });
});
