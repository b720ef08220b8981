// The conformance suite's client: Switchboard's own OAuth provider, sign-in flow and remote
// connection code (connectRemote, the SDK transports), with the one browser step replaced by
// fetch(url, { redirect: 'manual' }) that carries the code to our loopback listener.
// Usage (by the runner): client.ts <server-url>, MCP_CONFORMANCE_SCENARIO, MCP_CONFORMANCE_CONTEXT.
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
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

async function plain(): Promise<void> {
  const client = makeClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(serverUrl)));
  await exercise(client);
  await client.close();
}

try {
  if (scenario.startsWith('auth/client-credentials')) await withClientCredentials();
  else if (scenario.startsWith('auth/')) await withSignIn();
  else await plain();
  process.exit(0);
} catch (error) {
  log(`failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
