import { describe, expect, it } from 'vitest';
import { freeSecretName, isLiteralValue, suggestSecretName } from '../../../src-renderer/lib/secrets/keychain-value';

describe('keychain value helpers', () => {
  it('suggests <server>-<KEY> fitted to the secret-name rule', () => {
    expect(suggestSecretName('github', 'GITHUB_TOKEN')).toBe('github-GITHUB_TOKEN');
    expect(suggestSecretName('api', 'X Api Key')).toBe('api-X_Api_Key');
    expect(suggestSecretName('', '')).toBe('server-value');
    expect(suggestSecretName('s'.repeat(200), 'K').length).toBe(120);
  });

  it('never picks a name the keychain already holds (setSecret would overwrite it)', () => {
    expect(freeSecretName('gh-TOKEN', new Set())).toBe('gh-TOKEN');
    expect(freeSecretName('gh-TOKEN', new Set(['gh-TOKEN']))).toBe('gh-TOKEN-2');
    expect(freeSecretName('gh-TOKEN', new Set(['gh-TOKEN', 'gh-TOKEN-2']))).toBe('gh-TOKEN-3');
  });

  it('offers only literal, non-empty values that are not already references', () => {
    expect(isLiteralValue('ghp_abc')).toBe(true);
    expect(isLiteralValue('  ')).toBe(false);
    expect(isLiteralValue('${secret:x}')).toBe(false);
    expect(isLiteralValue('Bearer ${secret:x}')).toBe(false);
  });
});
