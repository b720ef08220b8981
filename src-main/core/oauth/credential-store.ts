import { createHash } from 'node:crypto';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Clock, SecretVault } from '../ports';
import { systemClock } from '../ports';

/**
 * Everything OAuth keeps, as keychain entries under "oauth/…" (SECURITY S1, O10, O12):
 * - a client registration per authorization server (issuer), with the redirect URI it was registered for;
 * - tokens per (issuer, client_id, resource), so server A's token can never be read for server B;
 * - per server: its binding (which issuer/client/resource its tokens are under, and the validated
 *   discovery), the PKCE verifier while a flow runs, and a pre-registered client the user entered.
 */
export interface StoredClient {
  issuer: string;
  redirectUri: string;
  kind: 'dynamic' | 'metadata-document';
  info: OAuthClientInformationMixed;
}

export interface StoredTokens {
  issuer: string;
  clientId: string;
  resource: string;
  tokens: OAuthTokens;
  /** Epoch ms when the access token expires, when the server said. */
  expiresAt?: number;
}

export interface ServerBinding {
  serverUrl: string;
  issuer: string;
  clientId: string;
  resource: string;
  discovery: OAuthDiscoveryState;
}

export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
}

/** What the provider remembers between calls for one server: step-up rounds (O11). */
export interface ServerSession {
  wantedScope?: string;
  stepUpPending: boolean;
  stepUps: number;
  /** The JSON-RPC method that met insufficient_scope; its success ends the step-up rounds. */
  stepUpMethod?: string;
  /** The last 401 challenge a connection met (O1): the next sign-in starts from it. */
  challenge?: { scope?: string; resourceMetadataUrl?: string; scheme?: string };
  /** Tokens were found for it in this run: OAuth applies, so the UI offers Sign out (issue 23 item 6). */
  heldTokens?: boolean;
}

const digest = (...parts: string[]): string => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);

export const oauthKeys = {
  client: (issuer: string) => `oauth/client/${digest(issuer)}`,
  tokens: (issuer: string, clientId: string, resource: string) => `oauth/tokens/${digest(issuer, clientId, resource)}`,
  binding: (server: string) => `oauth/binding/${server}`,
  verifier: (server: string) => `oauth/verifier/${server}`,
  preRegistered: (server: string) => `oauth/pre-registered/${server}`,
};

interface BufferedResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  at: number;
}

interface RefreshEntry {
  pending: Promise<BufferedResponse>;
  done?: BufferedResponse;
  replayMs: number;
}

const rotatedRefreshToken = (body: string): string | undefined => {
  try {
    const token = (JSON.parse(body) as { refresh_token?: unknown }).refresh_token;
    return typeof token === 'string' ? token : undefined;
  } catch {
    return undefined;
  }
};

/** How long a finished refresh answers late callers holding the same (now rotated) refresh token. */
const REFRESH_REPLAY_MS = 120_000;
/** How long a just-issued refresh token answers with the refresh that issued it. */
const ROTATED_REPLAY_MS = 10_000;

export class OAuthCredentialStore {
  private readonly sessions = new Map<string, ServerSession>();
  private readonly refreshes = new Map<string, RefreshEntry>();

  constructor(
    readonly vault: SecretVault,
    readonly clock: Clock = systemClock,
  ) {}

  session(server: string): ServerSession {
    let session = this.sessions.get(server);
    if (!session) this.sessions.set(server, (session = { stepUpPending: false, stepUps: 0 }));
    return session;
  }

  readClient = (issuer: string) => this.readJson<StoredClient>(oauthKeys.client(issuer));
  saveClient = (client: StoredClient) => this.vault.set(oauthKeys.client(client.issuer), JSON.stringify(client));
  deleteClient = (issuer: string) => this.vault.delete(oauthKeys.client(issuer));

  readTokens = (b: Pick<ServerBinding, 'issuer' | 'clientId' | 'resource'>) => this.readJson<StoredTokens>(oauthKeys.tokens(b.issuer, b.clientId, b.resource));
  saveTokens = (t: StoredTokens) => this.vault.set(oauthKeys.tokens(t.issuer, t.clientId, t.resource), JSON.stringify(t));
  deleteTokens = (b: Pick<ServerBinding, 'issuer' | 'clientId' | 'resource'>) => this.vault.delete(oauthKeys.tokens(b.issuer, b.clientId, b.resource));

  readBinding = (server: string) => this.readJson<ServerBinding>(oauthKeys.binding(server));
  saveBinding = (server: string, b: ServerBinding) => this.vault.set(oauthKeys.binding(server), JSON.stringify(b));
  deleteBinding = (server: string) => this.vault.delete(oauthKeys.binding(server));

  readVerifier = (server: string) => this.vault.get(oauthKeys.verifier(server));
  saveVerifier = (server: string, verifier: string) => this.vault.set(oauthKeys.verifier(server), verifier);
  deleteVerifier = (server: string) => this.vault.delete(oauthKeys.verifier(server));

  readPreRegistered = (server: string) => this.readJson<PreRegisteredClient>(oauthKeys.preRegistered(server));
  savePreRegistered = (server: string, c: PreRegisteredClient) => this.vault.set(oauthKeys.preRegistered(server), JSON.stringify(c));
  deletePreRegistered = (server: string) => this.vault.delete(oauthKeys.preRegistered(server));

  /**
   * One refresh request per refresh token, however many callers want it at once (SECURITY S2):
   * concurrent callers share the request, and late callers with the same token get its answer,
   * so a rotated token is never presented twice.
   */
  async refreshOnce(refreshToken: string, send: () => Promise<Response>): Promise<Response> {
    const now = this.clock.now();
    for (const [token, entry] of this.refreshes) {
      if (entry.done && now - entry.done.at > entry.replayMs) this.refreshes.delete(token);
    }
    let entry = this.refreshes.get(refreshToken);
    if (!entry) {
      const created: RefreshEntry = {
        replayMs: REFRESH_REPLAY_MS,
        pending: send().then(async (r) => {
          const done = { status: r.status, statusText: r.statusText, headers: [...r.headers], body: await r.text(), at: this.clock.now() };
          created.done = done;
          // A caller that read the rotated token a moment after it arrived gets this same answer,
          // rather than spending the new refresh token on a second request.
          const rotated = r.ok ? rotatedRefreshToken(done.body) : undefined;
          if (rotated && rotated !== refreshToken) this.refreshes.set(rotated, { pending: created.pending, done, replayMs: ROTATED_REPLAY_MS });
          return done;
        }),
      };
      created.pending.catch(() => this.refreshes.delete(refreshToken));
      this.refreshes.set(refreshToken, (entry = created));
    }
    const answer = await entry.pending;
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
  }

  /** Waits for a refresh of this token that is under way, if any; never throws. */
  async refreshSettled(refreshToken: string): Promise<void> {
    const entry = this.refreshes.get(refreshToken);
    if (entry && !entry.done) await entry.pending.catch(() => undefined);
  }

  private async readJson<T>(key: string): Promise<T | undefined> {
    const raw = await this.vault.get(key);
    if (raw === undefined) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      // A damaged entry is as good as none: the user signs in again.
      return undefined;
    }
  }
}
