import { randomBytes } from 'node:crypto';
import {
  extractWWWAuthenticateParams,
  refreshAuthorization,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { RemoteServerConfig } from '../config/server-config';
import type { Logger } from '../ports';
import { KeychainUnavailableError } from '../secrets/keytar-vault';
import type { OAuthCredentialStore, ServerBinding } from './credential-store';
import { challengeScheme, CredentialsRequiredError, offersOAuth } from './credentials-needed';
import { canonicalServerUri } from './discovery';

/** The server has no usable credentials: the connection goes to needs_auth and waits for the user. */
export class SignInRequiredError extends UnauthorizedError {
  constructor(
    readonly server: string,
    readonly reason: 'no_credentials' | 'step_up',
    detail: string,
  ) {
    super(detail);
    this.name = 'SignInRequiredError';
  }
}

/** A request still met insufficient_scope after MAX_STEP_UPS sign-ins (the first one included): stop asking (O11). */
export class StepUpLimitError extends Error {
  constructor(server: string, scope: string | undefined) {
    super(`${server} still refuses with insufficient_scope after ${MAX_STEP_UPS} sign-ins${scope ? ` (scope "${scope}")` : ''}; not asking again`);
    this.name = 'StepUpLimitError';
  }
}

export const MAX_STEP_UPS = 3;
/** Refresh this long before the access token expires, so requests don't meet a 401 first. */
export const REFRESH_AHEAD_MS = 60_000;

/** What only the interactive sign-in flow has: the loopback redirect, its state, the browser. */
export interface InteractiveFlow {
  redirectUrl: string;
  state: string;
  discovery: OAuthDiscoveryState;
  resource: string;
  /** The scope this sign-in asks for, when it chose one. */
  scope?: string;
  openAuthorizationUrl(url: URL): Promise<void>;
}

export interface AuthProviderDeps {
  server: RemoteServerConfig;
  store: OAuthCredentialStore;
  logger: Logger;
  /** The guarded fetch (O9) for metadata, registration and token requests. */
  oauthFetch: FetchLike;
  /** The plain fetch for the MCP endpoint itself. */
  baseFetch?: FetchLike;
  /** A client ID metadata document URL (SEP-991), when Switchboard has one to offer. */
  clientMetadataUrl?: string;
  /** Absent: the background provider the connection manager uses; it never opens a browser. */
  flow?: InteractiveFlow;
}

const BACKGROUND_REDIRECT = 'http://127.0.0.1/callback';

/**
 * Switchboard's OAuthClientProvider. The SDK's auth() does discovery, registration, PKCE, the
 * authorization URL and the token requests; this keeps what it stores in the keychain keyed by
 * (issuer, client_id, resource), and adds what the SDK leaves out: validated discovery handed in
 * through discoveryState(), refresh ahead of expiry, one refresh per refresh token (S2), step-up
 * bookkeeping (O11), and a background mode that never opens a browser.
 */
export class SwitchboardAuthProvider implements OAuthClientProvider {
  readonly clientMetadataUrl?: string;
  /** Pass as the transport's `fetch`: it shares refreshes and notices insufficient_scope. */
  readonly fetch: FetchLike;

  constructor(private readonly deps: AuthProviderDeps) {
    this.clientMetadataUrl = deps.clientMetadataUrl;
    this.fetch = (url, init) => this.transportFetch(url, init);
  }

  private get name(): string {
    return this.deps.server.name;
  }

  get redirectUrl(): string {
    return this.deps.flow?.redirectUrl ?? BACKGROUND_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Switchboard',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // RFC 7591 / OIDC registration: a native app with a loopback redirect (O12).
      application_type: 'native',
    } as OAuthClientMetadata;
  }

  state(): string {
    return this.deps.flow?.state ?? randomBytes(32).toString('base64url');
  }

  /** In the background this is where the SDK starts answering a 401: say what would satisfy it. */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.deps.flow) return this.deps.flow.discovery;
    const { binding, keychain } = await this.storedBinding();
    if (binding) return binding.discovery;
    const challenge = this.deps.store.session(this.name).challenge;
    // Sign-in cannot satisfy a server without OAuth: it wants a key in a header.
    if (!(await offersOAuth(this.deps.server.url, this.deps.oauthFetch, challenge?.resourceMetadataUrl))) {
      throw new CredentialsRequiredError(this.deps.server.url, challenge?.scheme);
    }
    // Sign-in could, but its tokens would have nowhere to live (S1: never a plaintext fallback).
    if (keychain) throw keychain;
    throw new SignInRequiredError(this.name, 'no_credentials', `${this.name} needs sign-in`);
  }

  /**
   * The server's binding; no keychain means nothing was stored, so a server that needs no
   * credentials still connects (only reading or storing a secret fails, and only when needed).
   */
  private async storedBinding(): Promise<{ binding?: ServerBinding; keychain?: KeychainUnavailableError }> {
    try {
      return { binding: await this.deps.store.readBinding(this.name) };
    } catch (error) {
      if (error instanceof KeychainUnavailableError) return { keychain: error };
      throw error;
    }
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    if (this.deps.flow) this.deps.flow.discovery = state;
  }

  private async issuer(): Promise<string | undefined> {
    return this.deps.flow?.discovery.authorizationServerUrl ?? (await this.deps.store.readBinding(this.name))?.issuer;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const pre = await this.deps.store.readPreRegistered(this.name);
    if (pre) return { client_id: pre.clientId, ...(pre.clientSecret ? { client_secret: pre.clientSecret } : {}) };
    const issuer = await this.issuer();
    if (!issuer) return undefined;
    const stored = await this.deps.store.readClient(issuer);
    if (!stored) return undefined;
    // A registration is bound to its redirect URI: a different loopback URI means registering again (O12).
    if (this.deps.flow && stored.kind === 'dynamic') {
      if (stored.redirectUri !== this.redirectUrl) return undefined;
      // A registration limited to narrower scopes cannot ask for a step-up's wider ones.
      if (!scopeCovers((stored.info as { scope?: string }).scope, this.deps.flow.scope)) return undefined;
    }
    return { ...stored.info, issuer };
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    if (await this.deps.store.readPreRegistered(this.name)) return;
    const issuer = info.issuer ?? (await this.issuer());
    if (!issuer) return;
    const kind = this.clientMetadataUrl && info.client_id === this.clientMetadataUrl ? 'metadata-document' : 'dynamic';
    await this.deps.store.saveClient({ issuer, redirectUri: this.redirectUrl, kind, info: { ...info, issuer } });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    // A sign-in always asks the authorization server afresh; it never refreshes instead.
    if (this.deps.flow) return undefined;
    const { binding } = await this.storedBinding();
    if (!binding) return undefined;
    let stored = await this.deps.store.readTokens(binding);
    if (!stored) return undefined;
    const session = this.deps.store.session(this.name);
    session.heldTokens = true;
    if (stored.tokens.refresh_token && !session.stepUpPending && stored.expiresAt !== undefined && stored.expiresAt - this.deps.store.clock.now() < REFRESH_AHEAD_MS) {
      stored = await this.refreshAhead(binding, stored.tokens.refresh_token);
      if (!stored) return undefined;
    }
    // While a step-up is pending the SDK must authorize anew, not refresh into the same scope.
    if (session.stepUpPending) return { ...stored.tokens, refresh_token: undefined };
    return stored.tokens;
  }

  private async refreshAhead(binding: ServerBinding, refreshToken: string) {
    const metadata = binding.discovery.authorizationServerMetadata;
    const clientInformation = await this.clientInformation();
    if (!clientInformation) return this.deps.store.readTokens(binding);
    try {
      const fresh = await refreshAuthorization(binding.issuer, {
        metadata,
        clientInformation,
        refreshToken,
        resource: new URL(binding.resource),
        fetchFn: this.fetch,
      });
      await this.saveTokens({ ...fresh, issuer: binding.issuer });
    } catch (error) {
      if (error instanceof InvalidGrantError) {
        // The grant is gone: sign-in needed, and no retry loop (S2).
        await this.deps.store.deleteTokens(binding);
        this.deps.logger.warn('OAuth refresh refused; sign-in needed', { server: this.name });
        return undefined;
      }
      this.deps.logger.warn('OAuth refresh failed; using the current token', { server: this.name, error: error instanceof Error ? error.name : 'error' });
    }
    return this.deps.store.readTokens(binding);
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const existing = await this.deps.store.readBinding(this.name);
    const issuer = tokens.issuer ?? (await this.issuer());
    const client = await this.clientInformation();
    if (!issuer || !client) throw new Error(`${this.name}: tokens arrived before the client was known`);
    const discovery = this.deps.flow?.discovery ?? existing?.discovery;
    if (!discovery) throw new Error(`${this.name}: tokens arrived before discovery`);
    const resource = this.deps.flow?.resource ?? existing?.resource ?? canonicalServerUri(this.deps.server.url);
    const binding: ServerBinding = { serverUrl: this.deps.server.url, issuer, clientId: client.client_id, resource, discovery };
    const expiresAt = tokens.expires_in !== undefined ? this.deps.store.clock.now() + tokens.expires_in * 1000 : undefined;
    await this.deps.store.saveTokens({ issuer, clientId: client.client_id, resource, tokens, expiresAt });
    if (existing && (existing.issuer !== issuer || existing.clientId !== client.client_id || existing.resource !== resource)) {
      await this.deps.store.deleteTokens(existing);
    }
    await this.deps.store.saveBinding(this.name, binding);
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.deps.flow) return this.deps.flow.openAuthorizationUrl(url);
    const session = this.deps.store.session(this.name);
    if (session.stepUpPending) {
      session.wantedScope = url.searchParams.get('scope') ?? session.wantedScope;
      if (session.stepUps >= MAX_STEP_UPS) throw new StepUpLimitError(this.name, session.wantedScope);
      throw new SignInRequiredError(this.name, 'step_up', `${this.name} needs sign-in for more permissions${session.wantedScope ? ` (scope "${session.wantedScope}")` : ''}`);
    }
    throw new SignInRequiredError(this.name, 'no_credentials', `${this.name} needs sign-in`);
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    // Only a running sign-in keeps a verifier; a background attempt must not overwrite it.
    if (this.deps.flow) await this.deps.store.saveVerifier(this.name, verifier);
  }

  async codeVerifier(): Promise<string> {
    const verifier = await this.deps.store.readVerifier(this.name);
    if (!verifier) throw new Error(`${this.name}: no PKCE verifier is stored for this sign-in`);
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const binding = await this.deps.store.readBinding(this.name);
    if ((scope === 'all' || scope === 'tokens') && binding) await this.deps.store.deleteTokens(binding);
    if (scope === 'all' || scope === 'client') {
      const issuer = await this.issuer();
      if (issuer) await this.deps.store.deleteClient(issuer);
    }
    if (scope === 'all' || scope === 'verifier') await this.deps.store.deleteVerifier(this.name);
  }

  /** The transport's fetch: MCP requests pass through; OAuth requests take the guarded path. */
  private async transportFetch(url: string | URL, init?: RequestInit): Promise<Response> {
    const href = new URL(url).href;
    const body = init?.body;
    if (body instanceof URLSearchParams && body.get('grant_type') === 'refresh_token') {
      const refreshToken = body.get('refresh_token') ?? '';
      return this.deps.store.refreshOnce(refreshToken, () => this.deps.oauthFetch(url, init));
    }
    if (href !== canonicalServerUri(this.deps.server.url)) return this.deps.oauthFetch(url, init);
    const send = (request?: RequestInit) => (this.deps.baseFetch ?? fetch)(url, request);
    let response = await send(init);
    if (response.status === 401) response = await this.retryWithNewerToken(response, init, send);
    this.noteResponse(response, jsonRpcMethod(init?.body));
    return response;
  }

  /**
   * A request that raced a refresh (sent with the token the refresh just replaced) is sent again
   * once with the new token, so concurrent calls share one refresh instead of each starting auth().
   */
  private async retryWithNewerToken(response: Response, init: RequestInit | undefined, send: (init?: RequestInit) => Promise<Response>): Promise<Response> {
    const headers = new Headers(init?.headers);
    const used = headers.get('authorization')?.replace(/^Bearer /, '');
    if (!used) return response;
    // A configured Authorization header, not a token of ours, when there is no keychain.
    const { binding } = await this.storedBinding();
    const current = binding && (await this.deps.store.readTokens(binding));
    if (!current) return response;
    if (current.tokens.access_token === used && current.tokens.refresh_token) await this.deps.store.refreshSettled(current.tokens.refresh_token);
    const latest = (binding && (await this.deps.store.readTokens(binding)))?.tokens.access_token;
    if (!latest || latest === used) return response;
    await response.body?.cancel();
    headers.set('authorization', `Bearer ${latest}`);
    return send({ ...init, headers });
  }

  /**
   * Step-up bookkeeping (O11): a 403 insufficient_scope asks for a wider sign-in; the rounds end
   * when the request that was refused goes through (other calls succeeding prove nothing).
   */
  private noteResponse(response: Response, method: string | undefined): void {
    const session = this.deps.store.session(this.name);
    if (response.status === 401) {
      const { scope, resourceMetadataUrl } = extractWWWAuthenticateParams(response);
      const scheme = challengeScheme(response.headers.get('www-authenticate'));
      session.challenge = {
        ...(scope ? { scope } : {}),
        ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
        ...(scheme ? { scheme } : {}),
      };
    } else if (response.status === 403) {
      const { error, scope } = extractWWWAuthenticateParams(response);
      if (error !== 'insufficient_scope') return;
      session.stepUpPending = true;
      session.stepUps += 1;
      session.stepUpMethod = method;
      session.wantedScope = mergeScopes(session.wantedScope, scope);
    } else if (response.ok && method !== undefined && method === session.stepUpMethod) {
      session.stepUps = 0;
      session.stepUpMethod = undefined;
    }
  }
}

function scopeCovers(registered: string | undefined, wanted: string | undefined): boolean {
  if (!registered || !wanted) return true;
  const allowed = new Set(registered.split(/\s+/));
  return wanted.split(/\s+/).every((s) => allowed.has(s));
}

function jsonRpcMethod(body: RequestInit['body'] | undefined): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown } | { method?: unknown }[];
    const method = Array.isArray(message) ? message[0]?.method : message.method;
    return typeof method === 'string' ? method : undefined;
  } catch {
    return undefined;
  }
}

export function mergeScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((s) => (s ? s.split(/\s+/).filter(Boolean) : [])));
  return all.size ? [...all].join(' ') : undefined;
}
