import { describe, expect, it } from 'vitest';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { configSecrets, isSecretName, Scrubber, SCRUBBED, secretArgs } from '../../../src-main/core/secrets/scrubber';

describe('isSecretName', () => {
  it.each(['GITHUB_TOKEN', 'OPENAI_API_KEY', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'MYSQLPASSWORD', 'GH_PAT', 'Authorization', 'Proxy-Authorization', 'X-Api-Key', 'Cookie', 'clientSecret', 'access_token', 'refresh_token', 'code_verifier', 'Mcp-Session-Id', '--api-key', '--token'])(
    'calls %s secret-like',
    (name) => expect(isSecretName(name)).toBe(true),
  );

  it.each(['PATH', 'HOME', 'PORT', 'token_type', 'secretName', 'TOKEN_URL', 'KEYBOARD_LAYOUT', 'expires_in', 'X-Team', 'Accept', '--port', ''])('calls %s not secret-like', (name) =>
    expect(isSecretName(name)).toBe(false),
  );
});

describe('Scrubber', () => {
  it('replaces every remembered value in text, longest first, whatever characters it holds', () => {
    const scrubber = new Scrubber(['abc.*+?(def', 'abc.*+?(def-longer']);
    expect(scrubber.text('a abc.*+?(def-longer and abc.*+?(def')).toBe(`a ${SCRUBBED} and ${SCRUBBED}`);
  });

  it('leaves values under six characters and unexpanded references alone, so normal text survives', () => {
    const scrubber = new Scrubber(['true', 'admin', '${GITHUB_TOKEN}', '   ']);
    const text = 'admin is true; ${GITHUB_TOKEN} was left as is';
    expect(scrubber.text(text)).toBe(text);
  });

  it('finds a secret written into a URL or inside JSON text', () => {
    const secret = 'p@ss "word"/é';
    const scrubber = new Scrubber([secret]);
    expect(scrubber.text(`https://h/x?k=${encodeURIComponent(secret)}`)).toBe(`https://h/x?k=${SCRUBBED}`);
    expect(scrubber.text(JSON.stringify({ v: secret }))).toBe(`{"v":"${SCRUBBED}"}`);
  });

  it('learns every value read or written through the vault it watches, taking OAuth token JSON apart', async () => {
    const scrubber = new Scrubber();
    const inner = new MemoryVault();
    await inner.set('typed', 'typed-secret-value');
    const vault = scrubber.watch(inner);
    expect(await vault.get('typed')).toBe('typed-secret-value');
    await vault.set('oauth/tokens/x', JSON.stringify({ issuer: 'https://as.example', tokens: { access_token: 'access-abcdef', refresh_token: 'refresh-abcdef', token_type: 'Bearer' } }));
    expect(await inner.get('oauth/tokens/x')).toContain('access-abcdef');
    expect(scrubber.text('typed-secret-value access-abcdef refresh-abcdef')).toBe(`${SCRUBBED} ${SCRUBBED} ${SCRUBBED}`);
    // The token's type and the issuer are no secrets: text naming them is left whole.
    expect(scrubber.text('Bearer from https://as.example')).toBe('Bearer from https://as.example');
  });

  it('learns the credential fields of an expanded config, and only those', () => {
    const scrubber = new Scrubber();
    scrubber.rememberConfig({ kind: 'stdio', env: { SERVICE_TOKEN: 'env-token-1', LOG_LEVEL: 'verbose-debug' } });
    scrubber.rememberConfig({ kind: 'remote', headers: { Authorization: 'Bearer header-cred-1', 'X-Team': 'platform' } });
    expect(scrubber.text('env-token-1 header-cred-1 Bearer header-cred-1 verbose-debug platform')).toBe(`${SCRUBBED} ${SCRUBBED} ${SCRUBBED} verbose-debug platform`);
  });

  it('does not learn a URL or arguments as written, which the server editor shows and saves back', () => {
    const scrubber = new Scrubber();
    const config = { kind: 'remote' as const, url: 'https://h.example/mcp?api_key=query-key-1', args: ['--token', 'arg-token-1'], headers: {} };
    scrubber.rememberConfig(config);
    expect(scrubber.value(config)).toEqual(config);
  });

  it('reads the credential values of a config by name, and of arguments by position', () => {
    expect(secretArgs(['-y', 'server', '--token', 't1', '--api-key=k1', '--port', '80', '--password'])).toEqual(
      new Map([
        [3, 't1'],
        [4, 'k1'],
      ]),
    );
    expect(configSecrets({ kind: 'remote', headers: { Cookie: 'c=1', Accept: 'json' } })).toEqual(['c=1']);
  });

  it('scrubs a payload deeply without changing its shape; dates and bytes pass as they are', () => {
    const scrubber = new Scrubber(['secret-value-1']);
    const when = new Date(0);
    const bytes = new Uint8Array([1, 2]);
    const payload = { a: ['x secret-value-1'], b: { c: 'secret-value-1', n: 3, when, bytes } };
    const scrubbed = scrubber.value(payload);
    expect(scrubbed).toEqual({ a: [`x ${SCRUBBED}`], b: { c: SCRUBBED, n: 3, when, bytes } });
    expect(scrubbed.b.when).toBe(when);
    expect(scrubbed.b.bytes).toBe(bytes);
    expect(payload.a[0]).toBe('x secret-value-1');
  });

  it('replaces a log field under a secret-like name whatever its value, keeping references and names', () => {
    const scrubber = new Scrubber();
    expect(scrubber.fields({ headers: { Authorization: 'Bearer x', 'X-Team': 'a' }, env: { API_KEY: '${secret:k}', PAT: 'short' }, secretName: 'gh-token' })).toEqual({
      headers: { Authorization: SCRUBBED, 'X-Team': 'a' },
      env: { API_KEY: '${secret:k}', PAT: SCRUBBED },
      secretName: 'gh-token',
    });
  });

  it('widens for one use without teaching the process scrubber', () => {
    const scrubber = new Scrubber(['known-secret-1']);
    const wider = scrubber.with(['bundle-only-1']);
    expect(wider.text('known-secret-1 bundle-only-1')).toBe(`${SCRUBBED} ${SCRUBBED}`);
    expect(scrubber.text('bundle-only-1')).toBe('bundle-only-1');
  });
});
