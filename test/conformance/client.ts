// The conformance suite's client: Switchboard's own OAuth provider, sign-in flow and remote
// connection code (connectRemote, the SDK transports), with the one browser step replaced by
// fetch(url, { redirect: 'manual' }) that carries the code to our loopback listener.
// Usage (by the runner): client.ts <server-url>, MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT.
import { discoverOAuthServerInfo, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { ClientCredentialsProvider, PrivateKeyJwtProvider } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RemoteServerConfig } from '../../src-main/core/config/server-config';
import { connectRemote, type RemoteSession } from '../../src-main/core/mcp/remote-connect';
import { StepUpLimitError } from '../../src-main/core/oauth/auth-provider';
import { SignInService } from '../../src-main/core/oauth/sign-in';
import type { Logger, UrlOpener } from '../../src-main/core/ports';
import { MemoryVault } from '../../src-main/core/secrets/memory-vault';

const serverUrl = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
/** The client ID metadata document Switchboard offers where the authorization server accepts one (SEP-991). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

const log = (message: string) => process.stderr.write(`[switchboard-conformance] ${message}\n`);
const logger: Logger = { info: (m) => log(m), warn: (m) => log(m), error: (m) => log(m) };

/** The browser: follows redirects by hand until the loopback callback has answered. */
const browser: UrlOpener = {
  open: async (url) => {
    void (async () => {
      let next = url;
      for (let hop = 0; hop < 10; hop += 1) {
        const response = await fetch(next, { redirect: 'manual' });
        const location = response.headers.get('location');
        await response.body?.cancel();
        if (response.status < 300 || response.status > 399 || !location) return;
        next = new URL(location, next).href;
      }
    })().catch((error: unknown) => log(`browser: ${String(error)}`));
  },
};

const server: RemoteServerConfig = {
  kind: 'remote',
  name: 'conformance',
  url: serverUrl,
  headers: {},
  transport: 'streamable-http',
  enabled: true,
  timeout: 30,
  toolTimeout: 30,
  approval: 'auto',
  source: { path: 'conformance', origin: 'switchboard', userWritten: true },
};

const makeClient = () => {
  const client = new Client({ name: 'switchboard', version: '0.1.0' }, { capabilities: { elicitation: { form: { applyDefaults: true } } } });
  // Accept with nothing filled in: the SDK applies the schema's defaults (SEP-1034).
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
  return client;
};

async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  for (const tool of tools) {
    const args = tool.name === 'add_numbers' ? { a: 2, b: 3 } : {};
    await client.callTool({ name: tool.name, arguments: args });
  }
}

/** Interactive OAuth the way the app does it: connect; on "sign-in needed", sign in and connect again. */
async function withSignIn(): Promise<void> {
  const service = new SignInService({ vault: new MemoryVault(), opener: browser, logger, clientMetadataUrl: CLIENT_METADATA_URL, timeoutMs: 20_000 });
  if (context.client_id) await service.setPreRegisteredClient(server.name, { clientId: context.client_id, ...(context.client_secret ? { clientSecret: context.client_secret } : {}) });
  const provider = service.providerFor(server);
  for (let attempt = 0; attempt < 6; attempt += 1) {
    let session: RemoteSession | undefined;
    try {
      session = await connectRemote(makeClient, server, { authProvider: provider, timeoutMs: 20_000 });
      await exercise(session.client);
      await session.client.close();
      return;
    } catch (error) {
      await session?.client.close().catch(() => undefined);
      if (error instanceof StepUpLimitError) throw error;
      if (!(error instanceof UnauthorizedError)) throw error;
      log(`${error.message}; signing in`);
      const outcome = await service.signIn(server);
      log(`sign-in: ${outcome.state}`);
    }
  }
  throw new Error('still not authorized after repeated sign-ins');
}

/** The machine-to-machine extensions: the SDK's providers on our connection code. */
async function withClientCredentials(): Promise<void> {
  const clientId = context.client_id ?? '';
  const authProvider =
    scenario === 'auth/client-credentials-jwt'
      ? new PrivateKeyJwtProvider({ clientId, privateKey: context.private_key_pem ?? '', algorithm: context.signing_algorithm ?? 'ES256' })
      : new ClientCredentialsProvider({ clientId, clientSecret: context.client_secret ?? '' });
  const session = await connectRemote(makeClient, server, { authProvider, timeoutMs: 20_000 });
  await exercise(session.client);
  await session.client.close();
}

/**
 * SEP-990 (enterprise-managed authorization), an extension Switchboard itself does not offer:
 * the ID token is exchanged at the IdP for an ID-JAG (RFC 8693), which the SDK's auth() then
 * presents as a JWT bearer grant (RFC 7523) through prepareTokenRequest.
 */
async function withEnterpriseGrant(): Promise<void> {
  const info = await discoverOAuthServerInfo(serverUrl);
  const audience = info.authorizationServerMetadata?.issuer ?? info.authorizationServerUrl;
  const resource = info.resourceMetadata?.resource ?? serverUrl;
  let tokens: Awaited<ReturnType<OAuthClientProvider['tokens']>>;
  const authProvider: OAuthClientProvider = {
    redirectUrl: undefined,
    clientMetadata: { redirect_uris: [], grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], token_endpoint_auth_method: 'client_secret_basic' },
    clientInformation: () => ({ client_id: context.client_id ?? '', client_secret: context.client_secret ?? '' }),
    tokens: () => tokens,
    saveTokens: (t) => void (tokens = t),
    redirectToAuthorization: () => {
      throw new Error('no browser in this flow');
    },
    saveCodeVerifier: () => undefined,
    codeVerifier: () => '',
    prepareTokenRequest: async () => {
      const exchange = await fetch(context.idp_token_endpoint ?? '', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
          requested_token_type: 'urn:ietf:params:oauth:token-type:id-jag',
          subject_token: context.idp_id_token ?? '',
          subject_token_type: 'urn:ietf:params:oauth:token-type:id_token',
          audience,
          resource,
          client_id: context.idp_client_id ?? '',
        }),
      });
      if (!exchange.ok) throw new Error(`the IdP refused the token exchange (HTTP ${exchange.status})`);
      const { access_token: assertion } = (await exchange.json()) as { access_token: string };
      return new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion });
    },
  };
  const session = await connectRemote(makeClient, server, { authProvider, timeoutMs: 20_000 });
  await exercise(session.client);
  await session.client.close();
}

async function plain(): Promise<void> {
  const client = makeClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl)));
  await exercise(client);
  await client.close();
}

try {
  if (scenario.startsWith('auth/client-credentials')) await withClientCredentials();
  else if (scenario === 'auth/cross-app-access-complete-flow') await withEnterpriseGrant();
  else if (scenario.startsWith('auth/')) await withSignIn();
  else await plain();
  process.exit(0);
} catch (error) {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
