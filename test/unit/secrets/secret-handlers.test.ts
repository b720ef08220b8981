import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { secretHandlers } from '../../../src-main/core/secrets/secret-handlers';

describe('secretHandlers', () => {
  it('stores a value, lists names only, replaces and deletes', async () => {
    const vault = new MemoryVault();
    const handlers = secretHandlers(vault);
    await handlers.setSecret({ name: 'API_KEY', value: 'first' });
    await handlers.setSecret({ name: 'API_KEY', value: 'second' });
    await vault.set('oauth/tokens/x', 'not the user\'s');
    const listed = await handlers.listSecrets({});
    expect(listed).toEqual({ names: ['API_KEY'] });
    expect(JSON.stringify(listed)).not.toContain('second');
    expect(await vault.get('API_KEY')).toBe('second');
    expect(await handlers.deleteSecret({ name: 'API_KEY' })).toBeNull();
    expect(await vault.get('API_KEY')).toBeUndefined();
    expect(await vault.get('oauth/tokens/x')).toBe("not the user's");
  });

  it('refuses an empty value and an unknown name with messages naming the secret', async () => {
    const handlers = secretHandlers(new MemoryVault());
    await expect(handlers.setSecret({ name: 'EMPTY', value: '' })).rejects.toThrow('secret EMPTY: the value is empty');
    await expect(handlers.deleteSecret({ name: 'MISSING' })).rejects.toThrow('no secret named MISSING in the OS keychain');
  });
});
