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
 * authorization-server metadata. When that cannot be told (the network failed), assume it does,
 * so the answer is never worse than "sign in".
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
    return (await discoverAuthorizationServerMetadata(new URL('/', serverUrl).href, { fetchFn })) !== undefined;
  } catch {
    return true;
  }
}
