import { createServer } from 'node:net';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LoopbackListener } from '../../../src-main/core/oauth/loopback-listener';
import { oauthKeys } from '../../../src-main/core/oauth/credential-store';
import { forgetServerCredentials, SignInService } from '../../../src-main/core/oauth/sign-in';
import type { UrlOpener } from '../../../src-main/core/ports';
import { MCP_SCOPE, startAuthorizationServer, type AuthorizationServerFixture } from '../../fixtures/oauth/authorization-server';
import { HeadlessBrowser } from '../../fixtures/oauth/headless-browser';
import { goodAsMetadata, goodPrm, startMetadataServer, type MetadataServerOptions } from '../../fixtures/oauth/metadata-server';
import { startProtectedMcpServer, type ProtectedMcpServerFixture } from '../../fixtures/oauth/protected-mcp-server';
import { CapturingLogger, connect, emptyVault, remoteServer, testVault, toolText, usesKeychain } from './helpers';

const vaultKind = usesKeychain ? 'the real keychain' : 'an in-memory vault (no SWITCHBOARD_TEST_KEYCHAIN)';

describe(`sign-in against oidc-provider on 127.0.0.1, tokens in ${vaultKind}`, () => {
  let as: AuthorizationServerFixture;
  let alpha: ProtectedMcpServerFixture;
  let beta: ProtectedMcpServerFixture;
  const vault = testVault();

  beforeAll(async () => {
    as = await startAuthorizationServer();
    alpha = await startProtectedMcpServer({ name: 'alpha', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
    beta = await startProtectedMcpServer({ name: 'beta', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
  });
  afterEach(() => emptyVault(vault));
  afterAll(async () => {
    await Promise.all([as.close(), alpha.close(), beta.close()]);
  });

  const setup = () => {
    const browser = new HeadlessBrowser();
    const logger = new CapturingLogger();
    return { browser, logger, service: new SignInService({ vault, opener: browser, logger }) };
  };

  it('signs in end to end: S256, resource and state on the authorization URL, the result page, then a tool call (O4, O5, O6, O7)', async () => {
    const { browser, service } = setup();
    const server = remoteServer('alpha', alpha.url);
    const codeGrants = as.grants.authorization_code;
    const tokenRequests = as.tokenRequests.length;

    expect(await service.signIn(server)).toEqual({ state: 'signed_in', server: 'alpha' });

    expect(browser.opened).toHaveLength(1);
    const authorize = new URL(browser.opened[0]!);
    expect(authorize.origin).toBe(as.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('resource')).toBe(alpha.url);
    // The resource's scope, plus offline_access because this authorization server lists it (SEP-2207).
    expect(authorize.searchParams.get('scope')).toBe(`${MCP_SCOPE} offline_access`);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);

    const landing = await browser.lastLanding();
    expect(landing.status).toBe(200);
    expect(landing.body).toContain('Signed in to alpha — you can close this tab.');
    expect(landing.headers.get('cache-control')).toBe('no-store');
    expect(landing.headers.get('content-security-policy')).toBe("default-src 'none'");
    expect(as.grants.authorization_code).toBe(codeGrants + 1);
    // The code exchange names the resource too (O5), and the loopback port is closed once the flow is over (O7).
    expect(as.tokenRequests.slice(tokenRequests)).toEqual([{ grant_type: 'authorization_code', resource: alpha.url }]);
    await expect(fetch(authorize.searchParams.get('redirect_uri')!)).rejects.toThrow();

    const client = await connect(alpha.url, service.providerFor(server));
    expect(toolText(await client.callTool({ name: 'whoami' }))).toBe('user-1 at alpha');
    await client.close();
    // The verifier is gone once the flow ends; what stays is the binding, the registration and the tokens.
    expect((await vault.list()).map((n) => n.split('/').slice(0, 2).join('/')).sort()).toEqual(['oauth/binding', 'oauth/client', 'oauth/tokens']);
    expect(await vault.get(oauthKeys.verifier('alpha'))).toBeUndefined();
  });

  it('asks for offline_access and registers for the refresh_token grant when the server lists offline_access, and so gets a refresh token (SEP-2207)', async () => {
    const { browser, service } = setup();
    const server = remoteServer('alpha', alpha.url);
    await service.signIn(server);
    const authorize = new URL(browser.opened[0]!);
    expect(authorize.searchParams.get('scope')?.split(' ')).toContain('offline_access');
    // oidc-provider issues a refresh token only for a granted offline_access and a client allowed the grant.
    const client = await as.provider.Client.find(authorize.searchParams.get('client_id')!);
    expect(client?.grantTypes).toEqual(['authorization_code', 'refresh_token']);
    const tokens = await service.providerFor(server).tokens();
    expect(tokens?.refresh_token).toEqual(expect.any(String));
  });

  it('keeps the registration while its loopback port is free, and registers again when it is taken (O12)', async () => {
    const { browser, service } = setup();
    const server = remoteServer('alpha', alpha.url);
    const before = as.registrations;
    await service.signIn(server);
    const firstRedirect = new URL(browser.opened[0]!).searchParams.get('redirect_uri')!;
    await service.signIn(server);
    expect(new URL(browser.opened[1]!).searchParams.get('redirect_uri')).toBe(firstRedirect);
    expect(as.registrations).toBe(before + 1);

    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(Number(new URL(firstRedirect).port), '127.0.0.1', resolve));
    try {
      await service.signIn(server);
    } finally {
      await new Promise((resolve) => squatter.close(resolve));
    }
    expect(new URL(browser.opened[2]!).searchParams.get('redirect_uri')).not.toBe(firstRedirect);
    expect(as.registrations).toBe(before + 2);
  });

  it("keys tokens per server: alpha's token is never sent to beta, and each token is for its own resource (O10)", async () => {
    const { service } = setup();
    const a = remoteServer('alpha', alpha.url);
    const b = remoteServer('beta', beta.url);
    await service.signIn(a);
    const seenByBeta = beta.authorizations.length;

    await expect(connect(beta.url, service.providerFor(b))).rejects.toBeInstanceOf(UnauthorizedError);
    expect(beta.authorizations.slice(seenByBeta)).toEqual([]);

    await service.signIn(b);
    const alphaToken = (await service.providerFor(a).tokens())!.access_token;
    const betaToken = (await service.providerFor(b).tokens())!.access_token;
    expect(alphaToken).not.toBe(betaToken);
    const client = await connect(beta.url, service.providerFor(b));
    expect(toolText(await client.callTool({ name: 'whoami' }))).toBe('user-1 at beta');
    await client.close();
    expect(beta.authorizations.slice(seenByBeta)).not.toContain(`Bearer ${alphaToken}`);
    expect(beta.authorizations.slice(seenByBeta)).toContain(`Bearer ${betaToken}`);
    // Beta itself refuses alpha's token: it is bound to alpha's resource (RFC 8707).
    const misuse = await fetch(beta.url, { method: 'POST', headers: { authorization: `Bearer ${alphaToken}`, 'content-type': 'application/json' }, body: '{}' });
    expect(misuse.status).toBe(401);
  });

  it("signs out: that server's credentials leave the keychain and the next connection needs sign-in (S2)", async () => {
    const { service } = setup();
    const a = remoteServer('alpha', alpha.url);
    const b = remoteServer('beta', beta.url);
    await service.signIn(a);
    await service.signIn(b);
    const alphaBinding = (await service.store.readBinding('alpha'))!;

    await service.signOut(a);

    expect(await vault.get(oauthKeys.binding('alpha'))).toBeUndefined();
    expect(await service.store.readTokens(alphaBinding)).toBeUndefined();
    expect(await service.providerFor(a).tokens()).toBeUndefined();
    await expect(connect(alpha.url, service.providerFor(a))).rejects.toThrow('alpha needs sign-in');
    // Beta is untouched.
    const client = await connect(beta.url, service.providerFor(b));
    expect(toolText(await client.callTool({ name: 'whoami' }))).toBe('user-1 at beta');
    await client.close();
  });

  it('forgets a removed server: tokens, binding, pre-registered client, and a registration no other server uses', async () => {
    const { service } = setup();
    const a = remoteServer('alpha', alpha.url);
    const b = remoteServer('beta', beta.url);
    await service.signIn(a);
    await service.signIn(b);
    const issuer = (await service.store.readBinding('alpha'))!.issuer;
    await service.setPreRegisteredClient('alpha', { clientId: 'typed-by-user', clientSecret: 'typed-secret' });

    await forgetServerCredentials(service, a);
    expect(await vault.get(oauthKeys.preRegistered('alpha'))).toBeUndefined();
    expect(await vault.get(oauthKeys.binding('alpha'))).toBeUndefined();
    expect(await service.store.readClient(issuer)).toBeDefined(); // beta still uses it

    await forgetServerCredentials(service, b);
    expect(await service.store.readClient(issuer)).toBeUndefined();
    expect(await vault.list()).toEqual([]);
  });

  it('a cancel while the loopback listener opens ends the sign-in: no browser opens, no port stays open', async () => {
    const opened: string[] = [];
    const service = new SignInService({ vault, opener: { open: async (url) => void opened.push(url) }, logger: new CapturingLogger() });
    // The person presses Cancel just as the listener starts opening (the real listener still opens).
    const open = LoopbackListener.open.bind(LoopbackListener);
    let listener: LoopbackListener | undefined;
    const spy = vi.spyOn(LoopbackListener, 'open').mockImplementation(async (options) => {
      expect(service.cancel('alpha')).toBe(true);
      return (listener = await open(options));
    });
    try {
      expect(await service.signIn(remoteServer('alpha', alpha.url))).toEqual({ state: 'cancelled', server: 'alpha' });
    } finally {
      spy.mockRestore();
    }
    expect(opened).toEqual([]);
    expect(service.isRunning('alpha')).toBe(false);
    await expect(fetch(listener!.redirectUrl)).rejects.toThrow();
  });

  it('cancels a waiting sign-in: the outcome says so and the loopback port closes', async () => {
    const opened: string[] = [];
    const service = new SignInService({ vault, opener: { open: async (url) => void opened.push(url) }, logger: new CapturingLogger() });
    const running = service.signIn(remoteServer('alpha', alpha.url));
    while (opened.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(service.isRunning('alpha')).toBe(true);
    expect(service.cancel('alpha')).toBe(true);
    expect(await running).toEqual({ state: 'cancelled', server: 'alpha' });
    expect(service.isRunning('alpha')).toBe(false);
    const callback = new URL(new URL(opened[0]!).searchParams.get('redirect_uri')!);
    await expect(fetch(callback)).rejects.toThrow();
    expect(await vault.get(oauthKeys.verifier('alpha'))).toBeUndefined();
  });

  it('refuses a second sign-in to the same server while one runs', async () => {
    const opened: string[] = [];
    const service = new SignInService({ vault, opener: { open: async (url) => void opened.push(url) }, logger: new CapturingLogger() });
    const running = service.signIn(remoteServer('alpha', alpha.url));
    await expect(service.signIn(remoteServer('alpha', alpha.url))).rejects.toMatchObject({
      message: 'a sign-in to alpha is already running',
      diagnosis: { class: 'misuse', fix: 'finish the sign-in already open in the browser, or cancel it first' },
    });
    while (opened.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    service.cancel('alpha');
    expect(await running).toEqual({ state: 'cancelled', server: 'alpha' });
  });
});

describe('sign-in to an authorization server that does not list offline_access', () => {
  let as: AuthorizationServerFixture;
  let gamma: ProtectedMcpServerFixture;
  const vault = testVault();
  beforeAll(async () => {
    as = await startAuthorizationServer({ offlineAccess: false });
    gamma = await startProtectedMcpServer({ name: 'gamma', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
  });
  afterAll(async () => {
    await emptyVault(vault);
    await Promise.all([as.close(), gamma.close()]);
  });

  it('asks for the resource scope only, and still registers for the refresh_token grant (SEP-2207)', async () => {
    const browser = new HeadlessBrowser();
    const service = new SignInService({ vault, opener: browser, logger: new CapturingLogger() });
    const server = remoteServer('gamma', gamma.url);
    expect(await service.signIn(server)).toEqual({ state: 'signed_in', server: 'gamma' });
    const authorize = new URL(browser.opened[0]!);
    expect(authorize.searchParams.get('scope')).toBe(MCP_SCOPE);
    const client = await as.provider.Client.find(authorize.searchParams.get('client_id')!);
    expect(client?.grantTypes).toEqual(['authorization_code', 'refresh_token']);
    expect((await service.providerFor(server).tokens())?.refresh_token).toEqual(expect.any(String));
  });
});

describe('sign-in refusals before anything reaches the browser', () => {
  const vault = testVault();
  afterEach(() => emptyVault(vault));

  const attempt = async (
    asMetadata: (base: string) => Record<string, unknown>,
    prm = goodPrm,
    options: { browser?: UrlOpener } & Omit<MetadataServerOptions, 'asMetadata' | 'prm'> = {},
  ) => {
    const { browser, ...where } = options;
    const fixture = await startMetadataServer({ prm, asMetadata, ...where });
    const opened: string[] = [];
    // Should anything get through, the flow is cancelled at once rather than waiting for a browser.
    const opener: UrlOpener = { open: async (url) => void (opened.push(url), browser ? await browser.open(url) : service.cancel('hostile')) };
    const service: SignInService = new SignInService({ vault, opener, logger: new CapturingLogger() });
    try {
      const error = await service.signIn(remoteServer('hostile', fixture.url)).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      return { error, opened, base: fixture.base, requests: fixture.requests, registrations: fixture.registrations };
    } finally {
      await fixture.close();
    }
  };

  /** A browser that comes straight back to the loopback callback with a code, the flow's state and the given iss. */
  const returningWith = (iss: string | undefined) => {
    const pages: Promise<{ status: number; body: string }>[] = [];
    const browser: UrlOpener = {
      open: async (url) => {
        const authorize = new URL(url);
        const callback = new URL(authorize.searchParams.get('redirect_uri')!);
        callback.search = new URLSearchParams({ code: 'the-code', state: authorize.searchParams.get('state')!, ...(iss === undefined ? {} : { iss }) }).toString();
        // Not awaited: like a real browser tab, the page arrives once the flow has decided.
        pages.push(fetch(callback).then(async (r) => ({ status: r.status, body: await r.text() })));
      },
    };
    return { browser, pages };
  };

  it.each([
    ['file:///etc/passwd', 'the scheme "file" is not allowed (only https, or http to loopback)'],
    ['smb://attacker.example/share', 'the scheme "smb" is not allowed (only https, or http to loopback)'],
    ['myapp://authorize', 'the scheme "myapp" is not allowed (only https, or http to loopback)'],
    ['https://evil.example/$(calc.exe)', 'the URL contains shell syntax'],
    ['http://evil.example/authorize', 'plain http is allowed only to this computer (loopback)'],
  ])('refuses the authorization endpoint %s with an error naming the server', async (endpoint, reason) => {
    const { error, opened } = await attempt((base) => ({ ...goodAsMetadata(base), authorization_endpoint: endpoint }));
    expect(opened).toEqual([]);
    expect(error?.message).toBe(`sign-in to hostile refused: its authorization URL cannot be opened (${reason})`);
  });

  it.each([['javascript:alert(1)'], ['data:text/html,<script>alert(1)</script>'], ['http://[::1'], ['not a url at all']])(
    'refuses the authorization endpoint %j when reading the metadata',
    async (endpoint) => {
      const { error, opened, base } = await attempt((b) => ({ ...goodAsMetadata(b), authorization_endpoint: endpoint }));
      expect(opened).toEqual([]);
      expect(error?.message.startsWith(`cannot sign in to hostile: the authorization server metadata of ${base} could not be read (`)).toBe(true);
      // The document was read but is unusable: fixing it is the server's job, so a retry will not help.
      expect(error).toMatchObject({ diagnosis: { class: 'terminal' } });
    },
  );

  it('refuses an authorization server that does not advertise PKCE (O4)', async () => {
    const { error, opened, base, requests } = await attempt((b) => {
      const { code_challenge_methods_supported: _omit, ...rest } = goodAsMetadata(b);
      return rest;
    });
    expect(error?.message).toBe(`cannot sign in to hostile: the authorization server ${base} does not say it supports PKCE (code_challenge_methods_supported is missing)`);
    expect(error).toMatchObject({ diagnosis: { class: 'terminal', fix: "the server's sign-in is set up wrongly or is not safe to use; tell its administrator what the message says" } });
    expect(opened).toEqual([]);
    expect(requests).not.toContain('POST /register');
  });

  it('a server that does not answer is a transient sign-in failure', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const port = (closed.address() as { port: number }).port;
    await new Promise((done) => closed.close(done));
    const service = new SignInService({ vault, opener: { open: async () => {} }, logger: new CapturingLogger() });
    const url = `http://127.0.0.1:${port}/mcp`;
    await expect(service.signIn(remoteServer('gone', url))).rejects.toMatchObject({
      message: `cannot sign in to gone: ${url} did not answer (fetch failed)`,
      diagnosis: { class: 'transient', fix: `check that ${url} is up and your network works, then sign in again` },
    });
  });

  it('refuses an authorization server that offers PKCE without S256 (O4)', async () => {
    const { error, opened } = await attempt((b) => ({ ...goodAsMetadata(b), code_challenge_methods_supported: ['plain'] }));
    expect(error?.message).toMatch(/^cannot sign in to hostile: the authorization server http:\/\/127\.0\.0\.1:\d+ does not offer PKCE with S256 \(it offers plain\)$/);
    expect(opened).toEqual([]);
  });

  it('refuses metadata whose issuer is not the authorization server asked (O2)', async () => {
    const { error, opened, base, requests } = await attempt((b) => ({ ...goodAsMetadata(b), issuer: 'https://attacker.example' }));
    expect(error?.message).toBe(`cannot sign in to hostile: the authorization server metadata fetched for ${base} names a different issuer, "https://attacker.example"`);
    expect(opened).toEqual([]);
    expect(requests).not.toContain('POST /register');
  });

  it("refuses protected-resource metadata for another resource than the server's URI (O3)", async () => {
    const { error, opened, base, requests } = await attempt(goodAsMetadata, (b) => ({ ...goodPrm(b), resource: 'https://evil.example/mcp' }));
    expect(error?.message).toBe(
      `cannot sign in to hostile: its protected-resource metadata is for "https://evil.example/mcp", not for ${base}/mcp; refusing to request a token for another resource`,
    );
    expect(opened).toEqual([]);
    expect(requests.filter((r) => r.includes('oauth-authorization-server'))).toEqual([]);
  });

  it('refuses an authorization server on a link-local address before fetching its metadata (O9)', async () => {
    const { error, opened, requests } = await attempt(goodAsMetadata, (b) => ({ ...goodPrm(b), authorization_servers: ['http://169.254.169.254/'] }));
    expect(error?.message).toBe(
      'cannot sign in to hostile: the authorization server metadata of http://169.254.169.254/ could not be read (refusing to fetch http://169.254.169.254/.well-known/oauth-authorization-server: 169.254.169.254 is a link-local address (cloud metadata lives there))',
    );
    expect(opened).toEqual([]);
    expect(requests).toEqual(['POST /mcp', 'GET /.well-known/oauth-protected-resource/mcp']);
  });

  it.each([
    ['names another issuer', 'https://attacker.example', {}, 'the answer came from another authorization server'],
    ['leaves out iss although the server promised it', undefined, { authorization_response_iss_parameter_supported: true }, 'the answer did not say which authorization server sent it'],
  ])('refuses a callback that %s, and never spends its code (O6, RFC 9207)', async (_label, iss, promise, reason) => {
    const { browser, pages } = returningWith(iss);
    const { error, opened, base, requests } = await attempt((b) => ({ ...goodAsMetadata(b), ...promise }), goodPrm, { browser });
    expect(opened).toHaveLength(1);
    expect(error?.message).toBe(`sign-in to hostile refused: ${reason} (expected issuer ${base})`);
    expect(requests).not.toContain('POST /token');
    expect(await pages[0]).toEqual({ status: 400, body: expect.stringContaining(`Sign-in to hostile failed: ${reason}. You can close this tab.`) as string });
  });

  it.each([
    ['with the right iss', true],
    ['without iss, from a server that never promised one', false],
  ])('takes a callback %s on to the token endpoint (O6)', async (_label, withIss) => {
    let issuer = '';
    const browser: UrlOpener = { open: (url) => returningWith(withIss ? issuer : undefined).browser.open(url) };
    const { requests } = await attempt((b) => ((issuer = b), goodAsMetadata(b)), goodPrm, { browser });
    // The fixture has no token endpoint: what matters is that the code was taken there.
    expect(requests.filter((r) => r === 'POST /token')).toHaveLength(1);
  });

  it('registers as a native app with its loopback redirect and no client secret (O12)', async () => {
    const { error, opened, registrations } = await attempt(goodAsMetadata);
    expect(error).toBeUndefined();
    expect(registrations).toEqual([
      expect.objectContaining({
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        redirect_uris: [new URL(opened[0]!).searchParams.get('redirect_uri')],
      }),
    ]);
    expect(new URL(opened[0]!).searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  });

  it('asks the person for a client ID when the authorization server offers no way to register (O12)', async () => {
    const { error, opened, registrations } = await attempt((b) => {
      const { registration_endpoint: _omit, ...rest } = goodAsMetadata(b);
      return rest;
    });
    expect(error?.message).toBe(
      "sign-in to hostile needs a client ID: its authorization server offers neither a client ID metadata document nor dynamic registration; enter one in hostile's settings",
    );
    expect(opened).toEqual([]);
    expect(registrations).toEqual([]);
  });

  it('reads the protected-resource metadata where the 401 challenge says, not at the well-known URL (O1)', async () => {
    const { error, opened, requests } = await attempt(goodAsMetadata, goodPrm, { prmPath: '/elsewhere/prm.json' });
    expect(error).toBeUndefined();
    expect(opened).toHaveLength(1);
    expect(requests.slice(0, 3)).toEqual(['POST /mcp', 'GET /elsewhere/prm.json', 'GET /.well-known/oauth-authorization-server']);
  });

  it('without resource_metadata in the challenge, tries the path-based well-known URL, then the root one (O1)', async () => {
    const { error, opened, requests } = await attempt(goodAsMetadata, goodPrm, { challengeNamesPrm: false, prmPath: '/.well-known/oauth-protected-resource' });
    expect(error).toBeUndefined();
    expect(opened).toHaveLength(1);
    expect(requests.slice(0, 4)).toEqual([
      'POST /mcp',
      'GET /.well-known/oauth-protected-resource/mcp',
      'GET /.well-known/oauth-protected-resource',
      'GET /.well-known/oauth-authorization-server',
    ]);
  });

  it('finds the metadata of an issuer with a path by RFC 8414 path insertion first, then the OpenID forms (O2)', async () => {
    const { error, opened, requests } = await attempt(
      // An OpenID provider document must carry these three as well.
      (b) => ({ ...goodAsMetadata(b), issuer: `${b}/tenant`, jwks_uri: `${b}/jwks`, subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['RS256'] }),
      (b) => ({ ...goodPrm(b), authorization_servers: [`${b}/tenant`] }),
      { asMetadataPath: '/tenant/.well-known/openid-configuration' },
    );
    expect(error).toBeUndefined();
    expect(opened).toHaveLength(1);
    expect(requests.slice(2, 5)).toEqual([
      'GET /.well-known/oauth-authorization-server/tenant',
      'GET /.well-known/openid-configuration/tenant',
      'GET /tenant/.well-known/openid-configuration',
    ]);
  });
});
