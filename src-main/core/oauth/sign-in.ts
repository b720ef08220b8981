import { randomBytes } from 'node:crypto';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { SignInOutcome } from '../../../src-preload/contract/auth';
import { AppFailure } from '../app-error';
import { misuse, signInDiagnosis, terminal, transient, withDiagnosis } from '../diagnosis/diagnosis';
import type { RemoteServerConfig } from '../config/server-config';
import type { Clock, Logger, SecretVault, UrlOpener } from '../ports';
import { systemClock } from '../ports';
import { checkExternalUrl } from '../url-policy';
import { mergeScopes, SwitchboardAuthProvider, type InteractiveFlow } from './auth-provider';
import { OAuthCredentialStore, type PreRegisteredClient } from './credential-store';
import { discover } from './discovery';
import { guardedFetch, type HostResolver } from './guarded-fetch';
import { LoopbackListener, SignInCancelledError, type Timers } from './loopback-listener';

export interface SignInDeps {
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
  clock?: Clock;
  timers?: Timers;
  /** Fetch for everything on the network; tests keep the real one. */
  fetch?: FetchLike;
  /** Host resolution for the O9 address check; the system resolver unless a test needs another. */
  resolveHost?: HostResolver;
  clientMetadataUrl?: string;
  timeoutMs?: number;
  onSignInChanged?: (server: string, running: boolean) => void;
}

interface RunningFlow {
  listener?: LoopbackListener;
  cancelled: boolean;
}

/**
 * Signs in to remote servers: discovery (validated), registration, the authorization URL checked
 * by checkExternalUrl before the browser sees it, the loopback callback, the code exchange, and
 * tokens in the keychain. Also hands the connection manager its background provider per server.
 */
export class SignInService {
  readonly store: OAuthCredentialStore;
  private readonly oauthFetch: FetchLike;
  private readonly running = new Map<string, RunningFlow>();
  private readonly providers = new Map<string, SwitchboardAuthProvider>();

  constructor(private readonly deps: SignInDeps) {
    this.store = new OAuthCredentialStore(deps.vault, deps.clock ?? systemClock);
    this.oauthFetch = guardedFetch(deps.fetch ?? fetch, deps.resolveHost);
  }

  /** For the connection manager: `authProviderFor`. Pass `provider.fetch` as the transport's fetch too. */
  providerFor = (server: RemoteServerConfig): SwitchboardAuthProvider => {
    const key = `${server.name}\u0000${server.url}`;
    let provider = this.providers.get(key);
    if (!provider) {
      provider = new SwitchboardAuthProvider({
        server,
        store: this.store,
        logger: this.deps.logger,
        oauthFetch: this.oauthFetch,
        baseFetch: this.deps.fetch,
        clientMetadataUrl: this.deps.clientMetadataUrl,
      });
      this.providers.set(key, provider);
    }
    return provider;
  };

  /** OAuth applies to the server: it answered 401 with a challenge, or tokens were found for it in this run. */
  appliesTo(server: string): boolean {
    const session = this.store.session(server);
    return session.challenge !== undefined || session.heldTokens === true;
  }

  isRunning(server: string): boolean {
    return this.running.has(server);
  }

  cancel(server: string): boolean {
    const flow = this.running.get(server);
    if (!flow) return false;
    flow.cancelled = true;
    flow.listener?.cancel();
    return true;
  }

  async setPreRegisteredClient(server: string, client: PreRegisteredClient): Promise<void> {
    await this.store.savePreRegistered(server, client);
  }

  async signIn(server: RemoteServerConfig): Promise<SignInOutcome> {
    if (this.running.has(server.name)) throw new AppFailure('conflict', `a sign-in to ${server.name} is already running`, misuse('finish the sign-in already open in the browser, or cancel it first'));
    const flow: RunningFlow = { cancelled: false };
    this.running.set(server.name, flow);
    this.deps.onSignInChanged?.(server.name, true);
    try {
      await this.run(server, flow);
      return { state: 'signed_in', server: server.name };
    } catch (error) {
      if (error instanceof SignInCancelledError || flow.cancelled) return { state: 'cancelled', server: server.name };
      throw withDiagnosis(error, signInDiagnosis(server.name));
    } finally {
      await flow.listener?.close();
      await this.store.deleteVerifier(server.name);
      this.running.delete(server.name);
      this.deps.onSignInChanged?.(server.name, false);
    }
  }

  private async run(server: RemoteServerConfig, flow: RunningFlow): Promise<void> {
    const session = this.store.session(server.name);
    // The challenge a connection met is the one to answer (O1); without one, ask the server.
    const recorded = session.challenge;
    const challenge = recorded
      ? { ...(recorded.scope ? { scope: recorded.scope } : {}), ...(recorded.resourceMetadataUrl ? { resourceMetadataUrl: new URL(recorded.resourceMetadataUrl) } : {}) }
      : await this.probe(server);
    const discovery = await discover(server.name, server.url, this.oauthFetch, challenge.resourceMetadataUrl);
    if (flow.cancelled) throw new SignInCancelledError(server.name);
    const registered = await this.store.readClient(discovery.state.authorizationServerUrl);
    const pinned = registered?.kind === 'dynamic' ? Number(new URL(registered.redirectUri).port) || undefined : undefined;
    const state = randomBytes(32).toString('base64url');
    const listener = await LoopbackListener.open({
      serverName: server.name,
      state,
      port: pinned,
      timeoutMs: this.deps.timeoutMs,
      clock: this.deps.clock,
      timers: this.deps.timers,
    });
    flow.listener = listener;
    // A cancel while the listener opened reached no listener: nothing opens the browser after it.
    if (flow.cancelled) throw new SignInCancelledError(server.name);
    // Scope (O11): the challenge's, widened by a pending step-up; else the resource's scopes_supported, else none.
    const current = session.stepUpPending ? (await this.providerFor(server).tokens())?.scope : undefined;
    const resourceScope =
      mergeScopes(challenge.scope, session.stepUpPending ? current : undefined, session.stepUpPending ? session.wantedScope : undefined) ??
      mergeScopes(...(discovery.state.resourceMetadata?.scopes_supported ?? []));
    const scope = withOfflineAccess(resourceScope, discovery.state.authorizationServerMetadata?.scopes_supported);
    const interactive: InteractiveFlow = {
      redirectUrl: listener.redirectUrl,
      state,
      discovery: discovery.state,
      resource: discovery.resource,
      ...(scope ? { scope } : {}),
      openAuthorizationUrl: (url) => this.openAuthorizationUrl(server.name, url),
    };
    const provider = new SwitchboardAuthProvider({
      server,
      store: this.store,
      logger: this.deps.logger,
      oauthFetch: this.oauthFetch,
      clientMetadataUrl: this.deps.clientMetadataUrl,
      flow: interactive,
    });
    const options = { serverUrl: server.url, scope, resourceMetadataUrl: challenge.resourceMetadataUrl, fetchFn: this.oauthFetch };
    const started = await this.sdkStep(server.name, () => auth(provider, options));
    if (started !== 'REDIRECT') throw new AppFailure('internal', `sign-in to ${server.name}: the authorization server was not asked`);
    const callback = await listener.result;
    const issuer = discovery.state.authorizationServerMetadata?.issuer ?? discovery.issuer;
    const issSupported = (discovery.state.authorizationServerMetadata as Record<string, unknown> | undefined)?.authorization_response_iss_parameter_supported === true;
    // RFC 9207: an answer naming another issuer is a mix-up attack; when the server promised iss, it must be there.
    if (callback.iss !== undefined ? callback.iss !== issuer : issSupported) {
      const message = callback.iss !== undefined ? 'the answer came from another authorization server' : 'the answer did not say which authorization server sent it';
      callback.reply({ ok: false, message });
      throw new AppFailure('unavailable', `sign-in to ${server.name} refused: ${message} (expected issuer ${issuer})`, terminal('do not retry: the answer may come from an attacker; tell the server\'s administrator'));
    }
    try {
      await this.sdkStep(server.name, () => auth(provider, { ...options, authorizationCode: callback.code }));
    } catch (error) {
      callback.reply({ ok: false, message: 'the authorization server did not issue a token' });
      throw error;
    }
    session.stepUpPending = false;
    session.wantedScope = undefined;
    session.challenge = undefined;
    callback.reply({ ok: true });
    this.deps.logger.info('signed in', { server: server.name });
  }

  /** An unauthenticated request to learn the challenge: resource_metadata and scope (O1, O11). */
  private async probe(server: RemoteServerConfig): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
    let response: Response;
    try {
      response = await (this.deps.fetch ?? fetch)(server.url, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'switchboard', version: '0' } },
        }),
      });
    } catch (error) {
      throw new AppFailure('unavailable', `cannot sign in to ${server.name}: ${server.url} did not answer (${error instanceof Error ? error.message : String(error)})`, transient(`check that ${server.url} is up and your network works, then sign in again`));
    }
    await response.body?.cancel();
    if (response.status !== 401 && response.status !== 403) return {};
    const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
    return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) };
  }

  private async openAuthorizationUrl(server: string, url: URL): Promise<void> {
    const verdict = checkExternalUrl(url.href);
    if (!verdict.ok) throw new AppFailure('unavailable', `sign-in to ${server} refused: its authorization URL cannot be opened (${verdict.reason})`);
    await this.deps.opener.open(verdict.url);
  }

  /** SDK failures become errors naming the server; OAuth error text from the server is not repeated. */
  private async sdkStep<T>(server: string, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } catch (error) {
      if (error instanceof AppFailure) throw error;
      if (error instanceof OAuthError) throw new AppFailure('unavailable', `sign-in to ${server} failed: the authorization server answered ${error.errorCode}`);
      const message = error instanceof Error ? error.message : String(error);
      if (/does not support dynamic client registration/.test(message)) {
        throw new AppFailure('unavailable', `sign-in to ${server} needs a client ID: its authorization server offers neither a client ID metadata document nor dynamic registration; enter one in ${server}'s settings`, terminal(`register Switchboard with the authorization server and enter its client ID in ${server}'s settings`));
      }
      throw new AppFailure('unavailable', `sign-in to ${server} failed: ${message}`);
    }
  }

  /** Sign out: this server's tokens, binding and verifier leave the keychain. */
  async signOut(server: RemoteServerConfig): Promise<void> {
    this.cancel(server.name);
    const binding = await this.store.readBinding(server.name);
    if (binding) await this.store.deleteTokens(binding);
    await this.store.deleteBinding(server.name);
    await this.store.deleteVerifier(server.name);
    const session = this.store.session(server.name);
    Object.assign(session, { stepUpPending: false, stepUps: 0, wantedScope: undefined, stepUpMethod: undefined, challenge: undefined });
  }

  /** Server removal: sign out, forget its pre-registered client, and drop a registration no other server uses. */
  async forget(server: RemoteServerConfig): Promise<void> {
    const binding = await this.store.readBinding(server.name);
    await this.signOut(server);
    await this.store.deletePreRegistered(server.name);
    if (binding && !(await this.issuerInUse(binding.issuer))) await this.store.deleteClient(binding.issuer);
    for (const key of this.providers.keys()) if (key.startsWith(`${server.name}\u0000`)) this.providers.delete(key);
  }

  private async issuerInUse(issuer: string): Promise<boolean> {
    for (const name of await this.deps.vault.list()) {
      if (!name.startsWith('oauth/binding/')) continue;
      const other = await this.store.readBinding(name.slice('oauth/binding/'.length));
      if (other?.issuer === issuer) return true;
    }
    return false;
  }
}

/**
 * SEP-2207: an authorization server that lists offline_access issues refresh tokens only when it
 * is asked for, so it is added to the resource's scopes; never asked of one that does not list it.
 */
export function withOfflineAccess(scope: string | undefined, asScopesSupported: string[] | undefined): string | undefined {
  return asScopesSupported?.includes('offline_access') ? mergeScopes(scope, 'offline_access') : scope;
}

/** Delete everything Switchboard keeps for a server that is being removed. */
export async function forgetServerCredentials(service: SignInService, server: RemoteServerConfig): Promise<void> {
  await service.forget(server);
}
