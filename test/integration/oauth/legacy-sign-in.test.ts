// Sign-in to a server of the 2025-03-26 authorization revision, the shape of the conformance scenario
// auth/2025-03-26-oauth-endpoint-fallback: no metadata of any kind, /authorize, /token and /register
// at the server's root.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SignInService } from '../../../src-main/core/oauth/sign-in';
import { HeadlessBrowser } from '../../fixtures/oauth/headless-browser';
import { startLegacyMcpServer, type LegacyMcpServerFixture } from '../../fixtures/oauth/legacy-mcp-server';
import { startHttpFixture, type HttpFixture } from '../../fixtures/servers/http-fixture';
import { CapturingLogger, connect, emptyVault, remoteServer, testVault, toolText } from './helpers';

describe('sign-in to a 2025-03-26 server without any metadata (endpoint fallback)', () => {
  let legacy: LegacyMcpServerFixture;
  let apiKey: HttpFixture;
  const vault = testVault();

  beforeAll(async () => {
    legacy = await startLegacyMcpServer();
    apiKey = await startHttpFixture({ bearer: 'the-right-key' });
  });
  afterEach(() => emptyVault(vault));
  afterAll(async () => {
    await Promise.all([legacy.close(), apiKey.close()]);
  });

  it('signs in at the default /register, /authorize and /token on the server root, with S256, then calls a tool (O2)', async () => {
    const browser = new HeadlessBrowser();
    const service = new SignInService({ vault, opener: browser, logger: new CapturingLogger() });
    const server = remoteServer('legacy', legacy.url);

    // Before sign-in the connection asks for it, not for an API key.
    await expect(connect(legacy.url, service.providerFor(server))).rejects.toThrow('legacy needs sign-in');

    expect(await service.signIn(server)).toEqual({ state: 'signed_in', server: 'legacy' });
    const authorize = new URL(browser.opened[0]!);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(new URL('/authorize', legacy.url).href);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(legacy.registrations).toHaveLength(1);
    expect(legacy.registrations[0]).toMatchObject({ application_type: 'native', token_endpoint_auth_method: 'none' });
    expect(legacy.requests).toEqual(expect.arrayContaining(['POST /register', 'POST /token']));

    const client = await connect(legacy.url, service.providerFor(server));
    expect(toolText(await client.callTool({ name: 'whoami' }))).toBe('signed in at legacy');
    await client.close();
  });

  it('still asks for an API key, not sign-in, when the server answers its default authorization endpoint with 401 too', async () => {
    const service = new SignInService({ vault, opener: new HeadlessBrowser(), logger: new CapturingLogger() });
    const server = remoteServer('needs-key', apiKey.url);
    await expect(connect(apiKey.url, service.providerFor(server))).rejects.toThrow(
      `HTTP 401: ${new URL(apiKey.url).host} asks for credentials (WWW-Authenticate: Bearer) and offers no OAuth sign-in`,
    );
  });
});
