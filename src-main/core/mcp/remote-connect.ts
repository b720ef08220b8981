import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/server-config';
import { transportOf } from '../url-policy';
import { transportsLoaded } from './transport-errors';

// Loaded with the first remote server (server-session.ts imports this module when it connects one).
transportsLoaded({ StreamableHTTPError, SseError });

export interface RemoteSession {
  client: Client;
  transport: Transport;
  kind: 'http' | 'sse';
}

/** Remote servers must be https, except on this machine (SECURITY T1). Returns the problem, if any. */
export function remoteUrlProblem(url: string): string | undefined {
  if (!URL.canParse(url)) return `not a valid URL: ${url}`;
  const parsed = new URL(url);
  switch (transportOf(parsed)) {
    case 'https':
    case 'loopback-http':
      return undefined;
    case 'plain-http':
      return `refusing plain http to ${parsed.host}: remote servers must use https (http is allowed only for localhost)`;
    case 'other-scheme':
      return `unsupported URL scheme ${parsed.protocol.replace(':', '')} (use https)`;
  }
}

/**
 * Connect a fresh client to a remote server. Streamable HTTP first; with transport "auto",
 * a non-auth 4xx to the initial POST (a legacy server: 404/405) falls back to SSE on a new client.
 * Configured headers go on every request of either transport.
 */
export async function connectRemote(
  makeClient: () => Client,
  config: RemoteServerConfig,
  options: { authProvider?: OAuthClientProvider; timeoutMs: number },
): Promise<RemoteSession> {
  const url = new URL(config.url);
  const requestInit: RequestInit = { headers: { ...config.headers } };
  // A provider that brings its own fetch (Switchboard's OAuth provider: one refresh under concurrent 401s, step-up) gets it used.
  const providerFetch = (options.authProvider as { fetch?: FetchLike } | undefined)?.fetch;
  const common = { requestInit, ...(options.authProvider ? { authProvider: options.authProvider, ...(providerFetch ? { fetch: providerFetch } : {}) } : {}) };
  if (config.transport !== 'sse') {
    const client = makeClient();
    const transport = new StreamableHTTPClientTransport(url, common);
    try {
      await client.connect(transport, { timeout: options.timeoutMs });
      return { client, transport, kind: 'http' };
    } catch (error) {
      await client.close().catch(() => {});
      if (config.transport !== 'auto' || !isLegacyServerAnswer(error)) throw error;
    }
  }
  const client = makeClient();
  const transport = new SSEClientTransport(url, common);
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return { client, transport, kind: 'sse' };
}

/** A 4xx that is not about credentials: the server does not speak Streamable HTTP at this URL. */
function isLegacyServerAnswer(error: unknown): boolean {
  return error instanceof StreamableHTTPError && error.code !== undefined && error.code >= 400 && error.code < 500 && error.code !== 401 && error.code !== 403;
}
