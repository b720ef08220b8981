import { describe, expect, it } from 'vitest';
import { checkSecretName, isUserSecretName } from '../../../src-main/core/secrets/secret-name';

describe('secret names', () => {
  it.each(['GITHUB_TOKEN', 'api-key', 'openai.key', 'A', 'x'.repeat(128)])('accepts %s', (name) => {
    expect(isUserSecretName(name)).toBe(true);
    expect(() => checkSecretName(name)).not.toThrow();
  });

  it.each(['', 'with space', 'oauth/tokens/1', 'x'.repeat(129), '${secret:X}', 'naïve', 'a\nb'])('refuses %j with the rule', (name) => {
    expect(isUserSecretName(name)).toBe(false);
    expect(() => checkSecretName(name)).toThrow(
      `secret name ${JSON.stringify(name)} is not valid: a secret name is 1 to 128 letters, digits, "_", "." or "-"`,
    );
  });
});
