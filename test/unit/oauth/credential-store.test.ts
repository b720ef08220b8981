import { describe, expect, it } from 'vitest';
import { OAuthCredentialStore, oauthKeys } from '../../../src-main/core/oauth/credential-store';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';

const tokenAnswer = (access: string, refresh: string) =>
  new Response(JSON.stringify({ access_token: access, refresh_token: refresh, token_type: 'Bearer' }), { status: 200, headers: { 'content-type': 'application/json' } });

describe('OAuthCredentialStore', () => {
  it('keys tokens by issuer, client and resource: changing any one finds nothing', async () => {
    const store = new OAuthCredentialStore(new MemoryVault());
    const key = { issuer: 'https://as.example', clientId: 'c1', resource: 'https://a.example/mcp' };
    await store.saveTokens({ ...key, tokens: { access_token: 'A', token_type: 'Bearer' } });
    expect((await store.readTokens(key))?.tokens.access_token).toBe('A');
    expect(await store.readTokens({ ...key, issuer: 'https://other.example' })).toBeUndefined();
    expect(await store.readTokens({ ...key, clientId: 'c2' })).toBeUndefined();
    expect(await store.readTokens({ ...key, resource: 'https://b.example/mcp' })).toBeUndefined();
    expect(oauthKeys.tokens(key.issuer, key.clientId, key.resource)).toMatch(/^oauth\/tokens\/[0-9a-f]{40}$/);
  });

  it('sends one refresh for many concurrent callers with the same refresh token, each getting the answer', async () => {
    const store = new OAuthCredentialStore(new MemoryVault());
    let sent = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const send = async () => {
      sent += 1;
      await gate;
      return tokenAnswer('A2', 'R2');
    };
    const callers = Array.from({ length: 5 }, () => store.refreshOnce('R1', send));
    release();
    const bodies = await Promise.all(callers.map(async (c) => (await c).json()));
    expect(sent).toBe(1);
    expect(bodies).toEqual(Array(5).fill({ access_token: 'A2', refresh_token: 'R2', token_type: 'Bearer' }));
  });

  it('answers a late caller holding the just-rotated token with the same refresh, and sends again once that window passes', async () => {
    const clock = { t: 0, now: () => clock.t };
    const store = new OAuthCredentialStore(new MemoryVault(), clock);
    let sent = 0;
    const send = async () => tokenAnswer(`A${++sent + 1}`, `R${sent + 1}`);
    await store.refreshOnce('R1', send);
    expect(await (await store.refreshOnce('R2', send)).json()).toMatchObject({ access_token: 'A2' });
    expect(sent).toBe(1);
    clock.t = 11_000;
    expect(await (await store.refreshOnce('R2', send)).json()).toMatchObject({ access_token: 'A3', refresh_token: 'R3' });
    expect(sent).toBe(2);
  });

  it('lets the next caller try again after a refresh that failed to send', async () => {
    const store = new OAuthCredentialStore(new MemoryVault());
    await expect(store.refreshOnce('R1', async () => Promise.reject(new Error('network down')))).rejects.toThrow('network down');
    expect(await (await store.refreshOnce('R1', async () => tokenAnswer('A2', 'R2'))).json()).toMatchObject({ access_token: 'A2' });
  });

  it('reads a damaged entry as absent', async () => {
    const vault = new MemoryVault();
    await vault.set(oauthKeys.binding('alpha'), '{not json');
    expect(await new OAuthCredentialStore(vault).readBinding('alpha')).toBeUndefined();
  });
});
