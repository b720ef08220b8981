import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_AHEAD_MS, SignInRequiredError, StepUpLimitError } from '../../../src-main/core/oauth/auth-provider';
import { SignInService } from '../../../src-main/core/oauth/sign-in';
import { ADMIN_SCOPE, MCP_SCOPE, startAuthorizationServer, type AuthorizationServerFixture } from '../../fixtures/oauth/authorization-server';
import { HeadlessBrowser } from '../../fixtures/oauth/headless-browser';
import { startProtectedMcpServer, type ProtectedMcpServerFixture } from '../../fixtures/oauth/protected-mcp-server';
import { CapturingLogger, connect, emptyVault, remoteServer, testVault, toolText } from './helpers';

describe('the background provider: refresh, rotation, invalid_grant and step-up against oidc-provider', () => {
  let as: AuthorizationServerFixture;
  let alpha: ProtectedMcpServerFixture;
  const vault = testVault();
  const clock = { offset: 0, now: () => Date.now() + clock.offset };

  beforeAll(async () => {
    as = await startAuthorizationServer();
    alpha = await startProtectedMcpServer({ name: 'alpha', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
  });
  afterEach(async () => {
    clock.offset = 0;
    await emptyVault(vault);
  });
  afterAll(async () => {
    await Promise.all([as.close(), alpha.close()]);
  });

  const signedIn = async (fixture = alpha, name = 'alpha') => {
    const browser = new HeadlessBrowser();
    const service = new SignInService({ vault, opener: browser, logger: new CapturingLogger(), clock });
    const server = remoteServer(name, fixture.url);
    await service.signIn(server);
    return { service, server, browser, provider: service.providerFor(server) };
  };

  it('sends exactly one refresh however many calls meet a 401 together, and adopts the rotated refresh token (S2, O5)', async () => {
    const { provider } = await signedIn();
    const client = await connect(alpha.url, provider);
    const before = (await provider.tokens())!;
    alpha.reject(before.access_token);
    const refreshes = as.grants.refresh_token;
    const tokenRequests = as.tokenRequests.length;

    const answers = await Promise.all(Array.from({ length: 6 }, () => client.callTool({ name: 'whoami' })));

    expect(answers.map(toolText)).toEqual(Array(6).fill('user-1 at alpha'));
    expect(as.grants.refresh_token).toBe(refreshes + 1);
    expect(as.refreshErrors).toEqual([]);
    // The refresh names the resource its tokens are for (O5).
    expect(as.tokenRequests.slice(tokenRequests)).toEqual([{ grant_type: 'refresh_token', resource: alpha.url }]);
    const after = (await provider.tokens())!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBeDefined();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    // The old refresh token was spent by the one refresh: the server refuses it now.
    const replay = await fetch(`${as.issuer}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: before.refresh_token!, client_id: (await provider.clientInformation())!.client_id }),
    });
    expect(((await replay.json()) as { error: string }).error).toBe('invalid_grant');
    await client.close();
  });

  it('refreshes ahead of expiry, before any request meets a 401, naming the resource (O5)', async () => {
    const { provider } = await signedIn();
    const client = await connect(alpha.url, provider);
    const before = (await provider.tokens())!;
    const refreshes = as.grants.refresh_token;
    const tokenRequests = as.tokenRequests.length;
    const unauthorized = alpha.unauthorized();

    clock.offset = before.expires_in! * 1000 - REFRESH_AHEAD_MS / 2;
    expect(toolText(await client.callTool({ name: 'whoami' }))).toBe('user-1 at alpha');

    expect(as.grants.refresh_token).toBe(refreshes + 1);
    expect(as.tokenRequests.slice(tokenRequests)).toEqual([{ grant_type: 'refresh_token', resource: alpha.url }]);
    const after = (await provider.tokens())!;
    expect(after.access_token).not.toBe(before.access_token);
    // The call went out with the new token and met no 401 on the way.
    expect(alpha.authorizations.at(-1)).toBe(`Bearer ${after.access_token}`);
    expect(alpha.unauthorized()).toBe(unauthorized);
    await client.close();
  });

  it('turns invalid_grant into "needs sign-in" once, without a retry loop, and drops the dead tokens (S2)', async () => {
    const { service, provider } = await signedIn();
    const client = await connect(alpha.url, provider);
    const binding = (await service.store.readBinding('alpha'))!;
    const stored = (await service.store.readTokens(binding))!;
    await service.store.saveTokens({ ...stored, tokens: { ...stored.tokens, refresh_token: 'revoked-refresh-token' } });
    alpha.reject(stored.tokens.access_token);
    const errors = as.refreshErrors.length;

    const failure = await client.callTool({ name: 'whoami' }).then(
      () => undefined,
      (e: unknown) => e,
    );

    expect(failure).toBeInstanceOf(SignInRequiredError);
    expect((failure as Error).message).toBe('alpha needs sign-in');
    expect(as.refreshErrors.slice(errors)).toEqual(['invalid_grant']);
    expect(await service.store.readTokens(binding)).toBeUndefined();
    await client.close();
  });

  it('steps up on 403 insufficient_scope: the next sign-in asks for the wider scope, then the call goes through (O11)', async () => {
    const gamma = await startProtectedMcpServer({ name: 'gamma', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE, toolScope: ADMIN_SCOPE });
    try {
      const { service, server, browser, provider } = await signedIn(gamma, 'gamma');
      expect(new URL(browser.opened[0]!).searchParams.get('scope')).toBe(`${MCP_SCOPE} offline_access`);
      const client = await connect(gamma.url, provider);
      const failure = await client.callTool({ name: 'whoami' }).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(failure).toBeInstanceOf(SignInRequiredError);
      expect(failure?.message).toBe(`gamma needs sign-in for more permissions (scope "${MCP_SCOPE} ${ADMIN_SCOPE}")`);
      await client.close();

      await service.signIn(server);
      expect(new URL(browser.opened[1]!).searchParams.get('scope')).toBe(`${MCP_SCOPE} ${ADMIN_SCOPE} offline_access`);
      const again = await connect(gamma.url, provider);
      expect(toolText(await again.callTool({ name: 'whoami' }))).toBe('user-1 at gamma');
      await again.close();
    } finally {
      await gamma.close();
    }
  });

  it("answers the challenge the connection met, not the metadata's widest scopes (O1, O11)", async () => {
    const epsilon = await startProtectedMcpServer({
      name: 'epsilon',
      issuer: as.issuer,
      jwksUri: as.jwksUri,
      scope: MCP_SCOPE,
      openInitialize: true,
      prm: { scopes_supported: [MCP_SCOPE, ADMIN_SCOPE] },
    });
    try {
      const browser = new HeadlessBrowser();
      const service = new SignInService({ vault, opener: browser, logger: new CapturingLogger(), clock });
      const server = remoteServer('epsilon', epsilon.url);
      const provider = service.providerFor(server);
      const client = await connect(epsilon.url, provider);
      await expect(client.listTools()).rejects.toThrow('epsilon needs sign-in');
      await service.signIn(server);
      // The probe's initialize goes through unchallenged here: only the recorded challenge says "mcp:tools".
      expect(new URL(browser.opened[0]!).searchParams.get('scope')).toBe(`${MCP_SCOPE} offline_access`);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
      await client.close();
    } finally {
      await epsilon.close();
    }
  });

  it('stops asking after 3 sign-ins (the first and 2 step-ups) when the server is never satisfied (O11)', async () => {
    const delta = await startProtectedMcpServer({ name: 'delta', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE, toolScope: ADMIN_SCOPE, neverEnoughScope: true });
    try {
      const { service, server, browser, provider } = await signedIn(delta, 'delta');
      const failures: unknown[] = [];
      for (let round = 0; round < 5; round += 1) {
        const client = await connect(delta.url, provider);
        const failure = await client.callTool({ name: 'whoami' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        await client.close();
        failures.push(failure);
        if (!(failure instanceof SignInRequiredError)) break;
        await service.signIn(server);
      }
      expect(failures.slice(0, 2).every((f) => f instanceof SignInRequiredError)).toBe(true);
      expect(failures[2]).toBeInstanceOf(StepUpLimitError);
      expect((failures[2] as Error).message).toBe(`delta still refuses with insufficient_scope after 3 sign-ins (scope "${MCP_SCOPE} ${ADMIN_SCOPE}"); not asking again`);
      expect(failures).toHaveLength(3);
      expect(browser.opened).toHaveLength(3);
    } finally {
      await delta.close();
    }
  });
});
