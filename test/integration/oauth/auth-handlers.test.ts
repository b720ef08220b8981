import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ServersSnapshot } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { oauthKeys } from '../../../src-main/core/oauth/credential-store';
import type { SecretVault } from '../../../src-main/core/ports';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { MCP_SCOPE, startAuthorizationServer, type AuthorizationServerFixture } from '../../fixtures/oauth/authorization-server';
import { HeadlessBrowser } from '../../fixtures/oauth/headless-browser';
import { startProtectedMcpServer, type ProtectedMcpServerFixture } from '../../fixtures/oauth/protected-mcp-server';
import { CapturingLogger, emptyVault, testVault, usesKeychain } from './helpers';

/** The vault, remembering every value written through it: how the test learns the PKCE verifier. */
class RecordingVault implements SecretVault {
  readonly written = new Map<string, string[]>();
  constructor(private readonly inner: SecretVault) {}
  get = (name: string) => this.inner.get(name);
  delete = (name: string) => this.inner.delete(name);
  list = () => this.inner.list();
  set = async (name: string, value: string) => {
    this.written.set(name, [...(this.written.get(name) ?? []), value]);
    await this.inner.set(name, value);
  };
}

const CLIENT_SECRET = `canary-client-secret-${randomBytes(12).toString('hex')}`;

describe(`sign-in through the core's handlers, tokens in ${usesKeychain ? 'the real keychain' : 'an in-memory vault (no SWITCHBOARD_TEST_KEYCHAIN)'}`, () => {
  let as: AuthorizationServerFixture;
  let alpha: ProtectedMcpServerFixture;
  let home: string;
  const vault = new RecordingVault(testVault());

  beforeAll(async () => {
    as = await startAuthorizationServer({
      clients: [
        {
          client_id: 'switchboard-pre',
          client_secret: CLIENT_SECRET,
          application_type: 'native',
          redirect_uris: ['http://127.0.0.1/callback'],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        },
      ],
    });
    alpha = await startProtectedMcpServer({ name: 'alpha', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
    home = await mkdtemp(join(tmpdir(), 'switchboard-oauth-home-'));
  });
  afterAll(async () => {
    await Promise.all([as.close(), alpha.close(), rm(home, { recursive: true, force: true }), emptyVault(vault)]);
  });

  it('leaves no token, code, verifier or client secret in logs, stdout, the data home, events, results or the snapshot (S3)', async () => {
    const printed: string[] = [];
    const capture = (stream: NodeJS.WriteStream) =>
      vi.spyOn(stream, 'write').mockImplementation(((chunk: unknown) => (printed.push(String(chunk)), true)) as typeof stream.write);
    const spies: { mockRestore(): void }[] = [capture(process.stdout), capture(process.stderr)];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      spies.push(vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' '))));
    }
    const logger = new CapturingLogger();
    const browser = new HeadlessBrowser();
    const traffic: string[] = [];
    let core: SwitchboardCore | undefined;
    try {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { alpha: { url: alpha.url, transport: 'streamable-http' } } }));
      core = new SwitchboardCore({ home, vault, opener: browser, logger });
      const snapshots: ServersSnapshot[] = [];
      core.events.subscribe((name, payload) => {
        traffic.push(JSON.stringify({ name, payload }));
        if (name === 'serversChanged') snapshots.push(payload as ServersSnapshot);
      });
      const call = async (method: string, payload: unknown) => {
        const result = await dispatch(core!.handlers, method, payload);
        traffic.push(JSON.stringify(result));
        return result;
      };
      const stateOf = () => snapshots.at(-1)?.servers.find((s) => s.name === 'alpha')?.state;
      const until = async (state: string) => {
        for (let i = 0; i < 500 && stateOf() !== state; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
        return stateOf();
      };
      await core.start();
      expect(await until('needs_auth')).toBe('needs_auth');

      expect(await call('setOAuthClient', { name: 'alpha', clientId: 'switchboard-pre', clientSecret: CLIENT_SECRET })).toEqual({ ok: true, value: null });
      const signedIn = await call('signIn', { name: 'alpha' });
      expect(signedIn).toEqual({ ok: true, value: { state: 'signed_in', server: 'alpha' } });
      expect(await until('connected')).toBe('connected');
      expect(traffic.filter((t) => t.includes('"signInChanged"'))).toEqual([
        JSON.stringify({ name: 'signInChanged', payload: { server: 'alpha', running: true } }),
        JSON.stringify({ name: 'signInChanged', payload: { server: 'alpha', running: false } }),
      ]);
      const tools = await call('listTools', { server: 'alpha' });
      expect(JSON.stringify(tools)).toContain('whoami');
      expect(await call('listSecrets', {})).toEqual({ ok: true, value: { names: [] } });

      // The canaries: every credential value the flow handled.
      const binding = JSON.parse((await vault.get(oauthKeys.binding('alpha')))!) as { issuer: string; clientId: string; resource: string };
      expect(binding.clientId).toBe('switchboard-pre');
      const tokens = JSON.parse((await vault.get(oauthKeys.tokens(binding.issuer, binding.clientId, binding.resource)))!).tokens as { access_token: string; refresh_token: string };
      const code = new URL((await browser.lastLanding()).url).searchParams.get('code')!;
      const verifier = vault.written.get(oauthKeys.verifier('alpha'))?.[0];
      const canaries = { access_token: tokens.access_token, refresh_token: tokens.refresh_token, code, verifier, client_secret: CLIENT_SECRET };
      for (const [name, value] of Object.entries(canaries)) expect(value, name).toMatch(/^.{20,}$/);
      expect(alpha.authorizations).toContain(`Bearer ${tokens.access_token}`);

      const files: string[] = [];
      for (const entry of await readdir(home, { recursive: true, withFileTypes: true })) {
        if (entry.isFile()) files.push(`${entry.name}\n${await readFile(join(entry.parentPath, entry.name), 'utf8')}`);
      }
      const haystacks = {
        logs: logger.lines.join('\n'),
        printed: printed.join('\n'),
        dataHome: files.join('\n'),
        traffic: traffic.join('\n'),
        snapshot: JSON.stringify(core.snapshot()),
        browserOpened: browser.opened.join('\n'),
      };
      expect(haystacks.dataHome).toContain('servers.json');
      for (const [where, text] of Object.entries(haystacks)) {
        for (const [what, value] of Object.entries(canaries)) {
          expect(text.includes(value!), `${what} found in ${where}`).toBe(false);
        }
      }
      // The verifier lived only while the flow waited.
      expect(await vault.get(oauthKeys.verifier('alpha'))).toBeUndefined();

      // Sign out through the handlers: the server's credentials go, the state follows.
      expect(await call('signOut', { name: 'alpha' })).toEqual({ ok: true, value: null });
      expect(await vault.get(oauthKeys.binding('alpha'))).toBeUndefined();
      expect(await vault.get(oauthKeys.tokens(binding.issuer, binding.clientId, binding.resource))).toBeUndefined();
      expect(await until('needs_auth')).toBe('needs_auth');
    } finally {
      await core?.stop();
      for (const spy of spies) spy.mockRestore();
    }
  });

  it("deletes a removed server's credentials when the config no longer has it (S2)", async () => {
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { alpha: { url: alpha.url, transport: 'streamable-http' } } }));
    const core = new SwitchboardCore({ home, vault, opener: new HeadlessBrowser(), logger: new CapturingLogger() });
    try {
      await core.start();
      expect(await dispatch(core.handlers, 'signIn', { name: 'alpha' })).toEqual({ ok: true, value: { state: 'signed_in', server: 'alpha' } });
      const binding = JSON.parse((await vault.get(oauthKeys.binding('alpha')))!) as { issuer: string; clientId: string; resource: string };
      expect(await vault.get(oauthKeys.tokens(binding.issuer, binding.clientId, binding.resource))).toBeDefined();

      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: {} }));
      await core.reload();

      expect(await vault.get(oauthKeys.binding('alpha'))).toBeUndefined();
      expect(await vault.get(oauthKeys.tokens(binding.issuer, binding.clientId, binding.resource))).toBeUndefined();
      expect((await vault.list()).filter((name) => name.startsWith('oauth/'))).toEqual([]);
    } finally {
      await core.stop();
    }
  });

  it('refuses sign-in for servers that do not exist or are not remote, naming them', async () => {
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { local: { command: 'node', args: ['-e', '0'] } } }));
    const core = new SwitchboardCore({ home, vault, opener: new HeadlessBrowser(), logger: new CapturingLogger() });
    try {
      await core.start();
      expect(await dispatch(core.handlers, 'signIn', { name: 'nobody' })).toEqual({ ok: false, error: { code: 'not_found', message: 'no server named "nobody"' } });
      expect(await dispatch(core.handlers, 'signIn', { name: 'local' })).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'local is a stdio server; only remote servers sign in' },
      });
      expect(await dispatch(core.handlers, 'cancelSignIn', { name: 'local' })).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'local is a stdio server; only remote servers sign in' },
      });
      expect(await dispatch(core.handlers, 'signIn', { name: 'bad name!' })).toEqual({
        ok: false,
        error: { code: 'invalid_input', message: 'signIn: invalid payload at "name": server name may use only letters, digits, "_", "." and "-"' },
      });
    } finally {
      await core.stop();
    }
  });
});
