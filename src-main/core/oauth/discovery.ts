import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import { checkResourceAllowed } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AppFailure } from '../app-error';
import { terminal, transient } from '../diagnosis/diagnosis';
import { BlockedAddressError } from './guarded-fetch';

/** The validated outcome of discovery: what the SDK's auth() is handed through discoveryState(). */
export interface Discovery {
  state: OAuthDiscoveryState;
  /** The RFC 8707 resource indicator tokens are requested for, and keyed by (O5, O10). */
  resource: string;
  issuer: string;
}

/**
 * The protected-resource metadata speaks for this server (O3): same origin, and its path is the
 * server's path or a parent of it on a segment boundary (RFC 9728 root metadata names the origin).
 */
export function resourceCoversServer(resource: string, serverUrl: string): boolean {
  if (!URL.canParse(resource) || !URL.canParse(serverUrl)) return false;
  return checkResourceAllowed({ requestedResource: canonicalServerUri(serverUrl), configuredResource: resource });
}

/** Issuer identifiers compare as parsed URLs, tolerating one trailing "/" (RFC 8414 §3.3). */
export function sameIssuer(a: string, b: string): boolean {
  if (!URL.canParse(a) || !URL.canParse(b)) return a === b;
  const [x, y] = [new URL(a).href, new URL(b).href];
  return x === y || x.replace(/\/$/, '') === y.replace(/\/$/, '');
}

/** The server URL as a resource indicator: no fragment (RFC 8707 §2). */
export function canonicalServerUri(url: string): string {
  const u = new URL(url);
  u.hash = '';
  return u.href;
}

/**
 * Protected-resource and authorization-server discovery on the SDK, plus the checks it leaves
 * to us: PRM `resource` is this server (O3), the AS document names the issuer we asked (O2),
 * and PKCE S256 is advertised (O4). Every failure names the server.
 */
export async function discover(serverName: string, serverUrl: string, fetchFn: FetchLike, resourceMetadataUrl?: URL): Promise<Discovery> {
  const fix = terminal(`the server's sign-in is set up wrongly or is not safe to use; tell its administrator what the message says`);
  const refuse = (why: string, diagnosis = fix) => new AppFailure('unavailable', `cannot sign in to ${serverName}: ${why}`, diagnosis);
  let prm: OAuthProtectedResourceMetadata | undefined;
  try {
    prm = await discoverOAuthProtectedResourceMetadata(serverUrl, { resourceMetadataUrl }, fetchFn);
  } catch (error) {
    if (error instanceof BlockedAddressError) throw refuse(error.message);
    // No protected-resource metadata: the 2025-03-26 rule, the server's origin is the authorization server.
  }
  if (prm && !resourceCoversServer(prm.resource, serverUrl)) {
    throw refuse(`its protected-resource metadata is for ${JSON.stringify(prm.resource)}, not for ${serverUrl}; refusing to request a token for another resource`);
  }
  const issuer = prm?.authorization_servers?.[0] ?? new URL('/', serverUrl).href;
  let metadata;
  try {
    metadata = await discoverAuthorizationServerMetadata(issuer, { fetchFn });
  } catch (error) {
    // fetch fails with a TypeError when nothing answers; a document that does not parse is the server's to fix.
    const unreachable = error instanceof TypeError;
    throw refuse(`the authorization server metadata of ${issuer} could not be read (${error instanceof Error ? error.message : String(error)})`, unreachable ? transient(`check that ${issuer} is reachable from here, then sign in again`) : fix);
  }
  // A server of the 2025-03-26 revision (no protected-resource metadata) has its origin for
  // authorization base: no issuer was named to us, so none can be contradicted, and without any
  // metadata the SDK uses that revision's default endpoints. A named authorization server must
  // publish metadata naming itself (O2).
  const legacy = !prm?.authorization_servers?.length;
  if (!metadata) {
    if (legacy) return { issuer, resource: canonicalServerUri(serverUrl), state: { authorizationServerUrl: issuer, resourceMetadata: prm } };
    throw refuse(`the authorization server ${issuer} publishes no metadata (RFC 8414 or OpenID discovery)`);
  }
  if (!legacy && !sameIssuer(metadata.issuer, issuer)) {
    throw refuse(`the authorization server metadata fetched for ${issuer} names a different issuer, ${JSON.stringify(metadata.issuer)}`);
  }
  const methods = metadata.code_challenge_methods_supported;
  if (!methods?.includes('S256')) {
    throw refuse(
      methods
        ? `the authorization server ${issuer} does not offer PKCE with S256 (it offers ${methods.join(', ') || 'none'})`
        : `the authorization server ${issuer} does not say it supports PKCE (code_challenge_methods_supported is missing)`,
    );
  }
  return {
    issuer: metadata.issuer,
    resource: prm?.resource ?? canonicalServerUri(serverUrl),
    state: {
      authorizationServerUrl: issuer,
      resourceMetadataUrl: resourceMetadataUrl?.href,
      resourceMetadata: prm,
      authorizationServerMetadata: metadata,
    },
  };
}
