import { discoverAuthorizationServerMetadata, discoverOAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A 401 from a server that offers no OAuth sign-in: signing in cannot help, the server wants a key
 * in a header (an API key). Its reason starts "HTTP 401: " and names the challenge's scheme.
 */
export class CredentialsRequiredError extends Error {
  constructor(serverUrl: string, scheme: string | undefined) {
    super(`HTTP 401: ${new URL(serverUrl).host} asks for credentials${scheme ? ` (WWW-Authenticate: ${scheme})` : ''} and offers no OAuth sign-in`);
    this.name = 'CredentialsRequiredError';
  }
}

/** The auth scheme of a WWW-Authenticate header ("Bearer", "Basic", …), if it names one. */
export function challengeScheme(header: string | null): string | undefined {
  return header ? /^\s*([A-Za-z][\w!#$%&'*+.^`|~-]*)/.exec(header)?.[1] : undefined;
}

/**
 * Whether a server that answered 401 offers OAuth: its challenge names resource metadata, it
 * publishes protected-resource metadata (RFC 9728), or (the 2025-03-26 rule) its origin publishes
 * authorization-server metadata or, without any, answers at the default authorization endpoint.
 * When that cannot be told (the network failed), assume it does, so the answer is never worse than "sign in".
 */
export async function offersOAuth(serverUrl: string, fetchFn: FetchLike, resourceMetadataUrl?: string): Promise<boolean> {
  if (resourceMetadataUrl) return true;
  try {
    await discoverOAuthProtectedResourceMetadata(serverUrl, {}, fetchFn);
    return true;
  } catch {
    // none there (404, 401, …): try the older rule
  }
  try {
    if ((await discoverAuthorizationServerMetadata(new URL('/', serverUrl).href, { fetchFn })) !== undefined) return true;
  } catch {
    return true;
  }
  return hasDefaultAuthorizationEndpoint(serverUrl, fetchFn);
}

/**
 * The 2025-03-26 fallback: a server without any metadata keeps its authorization endpoint at
 * `/authorize` on its origin (the SDK then uses `/authorize`, `/token` and `/register` there). An
 * API-key server answers that path like any other: 401/403 when everything is behind its key,
 * 404 when nothing is there, 405 when it is no authorization endpoint (which must take GET).
 * Anything else (a redirect to a login page, a 400 for the missing parameters) means the endpoint exists.
 */
async function hasDefaultAuthorizationEndpoint(serverUrl: string, fetchFn: FetchLike): Promise<boolean> {
  try {
    const response = await fetchFn(new URL('/authorize', serverUrl), { method: 'GET', redirect: 'manual' });
    await response.body?.cancel();
    return ![401, 403, 404, 405].includes(response.status);
  } catch {
    return true;
  }
}
