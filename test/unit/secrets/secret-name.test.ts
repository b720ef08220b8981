import { describe, expect, it } from 'vitest';
import type { ProviderKind } from '../../../src-preload/contract/chat';
import { apiKeyName } from '../../../src-main/core/chat/providers/provider-settings';
import { checkSecretName, isInternalSecretName, isUserSecretName, PROVIDER_KEY_NAMES } from '../../../src-main/core/secrets/secret-name';

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

describe("Switchboard's own keychain entries (SECURITY V1)", () => {
  it('counts every chat provider key and every oauth/… entry as internal, and a name the person made as not', () => {
    const providers: ProviderKind[] = ['anthropic', 'openai-compatible'];
    expect(providers.map(apiKeyName).sort()).toEqual([...PROVIDER_KEY_NAMES].sort());
    for (const name of [...PROVIDER_KEY_NAMES, 'oauth/tokens/1', 'oauth/binding/github']) expect(isInternalSecretName(name)).toBe(true);
    for (const name of ['GITHUB_TOKEN', 'install.github.token', 'bundle.notes.key']) expect(isInternalSecretName(name)).toBe(false);
  });
});
