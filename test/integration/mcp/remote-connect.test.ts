import type { ChildProcess } from 'node:child_process';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { remoteUrlProblem } from '../../../src-main/core/mcp/remote-connect';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { freePort, startEverything, stopChild } from '../../fixtures/servers/everything-http';
import { startHttpFixture, type HttpFixture } from '../../fixtures/servers/http-fixture';
import { callByName, is, manager, remote, tempHome, waitForState } from './helpers';

let home: string;
let cleanup: () => Promise<void>;
let m: McpManager | undefined;
const children: ChildProcess[] = [];
const fixtures: HttpFixture[] = [];
beforeEach(async () => ({ home, cleanup } = await tempHome()));
const track = async (started: Promise<HttpFixture>) => {
  const fixture = await started;
  fixtures.push(fixture);
  return fixture;
};
afterEach(async () => {
  await m?.stop();
  m = undefined;
  await Promise.all(children.splice(0).map(stopChild));
  await Promise.all(fixtures.splice(0).map((f) => f.close()));
  await cleanup();
});

describe('remote servers', () => {
  it('connects to server-everything over streamable HTTP and calls a tool', async () => {
    const everything = await startEverything('streamableHttp');
    children.push(everything.child);
    m = manager(home);
    await m.apply([remote('everything', everything.url)]);
    expect(await waitForState(m, 'everything', is('connected'))).toEqual({ kind: 'connected', reason: 'connected over streamable HTTP' });
    expect(m.status('everything')?.transport).toBe('http');
    const result = await callByName(m, 'everything__echo', { message: 'over http' });
    expect(result.content).toEqual([{ type: 'text', text: 'Echo: over http' }]);
  });

  it('falls back to legacy SSE with transport auto when the POST gets a 404', async () => {
    const everything = await startEverything('sse');
    children.push(everything.child);
    m = manager(home);
    await m.apply([remote('legacy', everything.url)]);
    expect(await waitForState(m, 'legacy', is('connected'))).toEqual({ kind: 'connected', reason: 'connected over sse' });
    expect(m.status('legacy')?.transport).toBe('sse');
    expect((await callByName(m, 'legacy__echo', { message: 'over sse' })).content).toEqual([{ type: 'text', text: 'Echo: over sse' }]);
  });

  it('does not fall back when the transport is pinned to streamable-http', async () => {
    const everything = await startEverything('sse');
    children.push(everything.child);
    m = manager(home);
    await m.apply([remote('pinned', everything.url, { transport: 'streamable-http' })]);
    const state = await waitForState(m, 'pinned', is('error'));
    expect(state.reason).toBe(`HTTP 404 from ${everything.url} during initialize`);
  });

  it('sends the configured headers on every request', async () => {
    const fixture = await startHttpFixture();
    fixtures.push(fixture);
    m = manager(home);
    await m.apply([remote('headers', fixture.url, { headers: { 'X-Api-Key': 'k-123' } })]);
    await waitForState(m, 'headers', is('connected'));
    await callByName(m, 'headers__echo', { message: 'hi' });
    expect(fixture.requests.length).toBeGreaterThanOrEqual(4); // initialize, initialized, tools/list, tools/call (+ GET stream)
    expect(fixture.requests.map((r) => r.headers['x-api-key'])).toEqual(fixture.requests.map(() => 'k-123'));
  });

  it('sends MCP-Protocol-Version after initialize and the session id once issued, and keeps the id out of logs and status (T1, S3)', async () => {
    const fixture = await track(startHttpFixture());
    const logged: string[] = [];
    const keep = (level: string) => (message: string, fields?: Record<string, unknown>) => void logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
    m = manager(home, { logger: { info: keep('info'), warn: keep('warn'), error: keep('error') } });
    await m.apply([remote('versioned', fixture.url)]);
    await waitForState(m, 'versioned', is('connected'));
    await callByName(m, 'versioned__echo', { message: 'hi' });

    const [initialize, ...after] = fixture.requests;
    expect(initialize!.method).toBe('POST');
    expect(initialize!.headers['mcp-session-id']).toBeUndefined();
    expect(after.length).toBeGreaterThanOrEqual(3); // initialized, tools/list, tools/call (+ GET stream)
    expect(after.map((r) => r.headers['mcp-protocol-version'])).toEqual(after.map(() => LATEST_PROTOCOL_VERSION));
    const sessionIds = [...new Set(after.map((r) => r.headers['mcp-session-id']))];
    expect(sessionIds).toHaveLength(1);
    expect(sessionIds[0]).toMatch(/^[0-9a-f-]{36}$/);
    for (const text of [logged.join('\n'), m.logs('versioned').join('\n'), JSON.stringify(m.status('versioned'))]) expect(text).not.toContain(sessionIds[0]);
  });

  it('re-initializes once, transparently, when the server forgot the session (404)', async () => {
    const fixture = await startHttpFixture();
    fixtures.push(fixture);
    m = manager(home);
    await m.apply([remote('forgetful', fixture.url)]);
    await waitForState(m, 'forgetful', is('connected'));
    expect(fixture.initializeCount()).toBe(1);
    fixture.forgetSessions();
    const result = await callByName(m, 'forgetful__echo', { message: 'after restart' });
    expect(result.content).toEqual([{ type: 'text', text: 'after restart' }]);
    expect(fixture.initializeCount()).toBe(2);
    expect(m.status('forgetful')?.state.kind).toBe('connected');
    expect(m.logs('forgetful')).toContain('[switchboard] the server forgot our session (HTTP 404); re-initializing once');
  });

  it('ends its HTTP session with a DELETE when it reconnects and when it stops (T1)', async () => {
    const fixture = await startHttpFixture();
    fixtures.push(fixture);
    m = manager(home);
    await m.apply([remote('tidy', fixture.url)]);
    await waitForState(m, 'tidy', is('connected'));
    const lastSession = () => fixture.requests.at(-1)?.headers['mcp-session-id'];
    await callByName(m, 'tidy__echo', { message: 'one' });
    const first = lastSession();
    await m.reconnect('tidy');
    await waitForState(m, 'tidy', is('connected'));
    await callByName(m, 'tidy__echo', { message: 'two' });
    const second = lastSession();
    await m.stop();
    m = undefined;
    expect(first).toEqual(expect.any(String));
    expect(second).not.toBe(first);
    expect(fixture.requests.filter((r) => r.method === 'DELETE').map((r) => r.headers['mcp-session-id'])).toEqual([first, second]);
  });

  it('puts a server that answers 401 in needs_auth and leaves the others alone', async () => {
    const locked = await startHttpFixture({ bearer: 'secret-token' });
    const open = await startHttpFixture();
    fixtures.push(locked, open);
    m = manager(home);
    await m.apply([remote('locked', locked.url), remote('open', open.url)]);
    expect(await waitForState(m, 'locked', is('needs_auth'))).toEqual({ kind: 'needs_auth', reason: 'HTTP 401: sign-in required' });
    await waitForState(m, 'open', is('connected'));
  });

  it('reaches a server with the token the injected OAuth provider holds', async () => {
    const locked = await startHttpFixture({ bearer: 'secret-token' });
    fixtures.push(locked);
    const asked: string[] = [];
    m = manager(home, {
      authProviderFor: (server) => {
        asked.push(server.name);
        return {
          redirectUrl: 'http://127.0.0.1/callback',
          clientMetadata: { redirect_uris: ['http://127.0.0.1/callback'] },
          clientInformation: () => undefined,
          tokens: () => ({ access_token: 'secret-token', token_type: 'Bearer' }),
          saveTokens: () => {},
          redirectToAuthorization: () => {},
          saveCodeVerifier: () => {},
          codeVerifier: () => '',
        };
      },
    });
    await m.apply([remote('locked', locked.url)]);
    await waitForState(m, 'locked', is('connected'));
    expect(asked).toEqual(['locked']);
  });

  it('notices a remote server that went away, backs off, and reconnects when it is back', async () => {
    const first = await startHttpFixture();
    const port = Number(new URL(first.url).port);
    m = manager(home, { pingIntervalMs: 100, backoff: { baseMs: 100 } });
    await m.apply([remote('flaky', first.url), remote('steady', (await track(startHttpFixture())).url)]);
    await waitForState(m, 'flaky', is('connected'));
    await first.close();
    const dropped = await waitForState(m, 'flaky', is('backing_off'));
    // Which the manager sees first depends on timing: a ping in flight as the server shuts (its socket closed under it), or the next ping refused.
    expect([`lost the connection (connection refused by 127.0.0.1:${port}); retrying in 100 ms`, 'lost the connection (fetch failed (other side closed) during ping); retrying in 100 ms']).toContain(dropped.reason);
    await track(startHttpFixture({ port }));
    await waitForState(m, 'flaky', is('connected'));
    expect((await callByName(m, 'flaky__echo', { message: 'back' })).content).toEqual([{ type: 'text', text: 'back' }]);
    expect(m.status('steady')?.state.kind).toBe('connected');
  });

  it('keeps backing off a remote server that stays down past the crash limit, and picks it up when it is back', async () => {
    const first = await startHttpFixture();
    const port = Number(new URL(first.url).port);
    m = manager(home, { pingIntervalMs: 100, backoff: { baseMs: 50, maxMs: 200, crashLimit: 3, windowMs: 120_000 } });
    await m.apply([remote('away', first.url)]);
    await waitForState(m, 'away', is('connected'));
    await first.close();
    // Three failures would be a crash loop for a command; for a remote server the retries go on at the cap.
    const capped = await waitForState(m, 'away', (s) => s.kind === 'error' || (s.kind === 'backing_off' && s.reason.endsWith('retrying in 200 ms')));
    expect(capped.reason).toBe(`connection refused by 127.0.0.1:${port}; retrying in 200 ms`);
    await new Promise((r) => setTimeout(r, 1000));
    expect(m.status('away')?.state.kind).not.toBe('error');
    await track(startHttpFixture({ port }));
    await waitForState(m, 'away', is('connected'));
    expect((await callByName(m, 'away__echo', { message: 'back again' })).content).toEqual([{ type: 'text', text: 'back again' }]);
  });

  it('refuses plain http to a host that is not this machine, without a request', async () => {
    m = manager(home);
    await m.apply([remote('plain', 'http://example.com/mcp')]);
    expect(await waitForState(m, 'plain', is('error'))).toEqual({
      kind: 'error',
      reason: 'refusing plain http to example.com: remote servers must use https (http is allowed only for localhost)',
    });
  });

  it('names the refused connection when nothing listens', async () => {
    const port = await freePort();
    m = manager(home);
    await m.apply([remote('down', `http://127.0.0.1:${port}/mcp`)]);
    expect((await waitForState(m, 'down', is('error'))).reason).toBe(`connection refused by 127.0.0.1:${port}`);
  });
});

describe('remoteUrlProblem', () => {
  it('accepts https anywhere and http only on loopback', () => {
    expect(remoteUrlProblem('https://mcp.example.com/mcp')).toBeUndefined();
    expect(remoteUrlProblem('http://localhost:3000/mcp')).toBeUndefined();
    expect(remoteUrlProblem('http://127.0.0.1:3000/mcp')).toBeUndefined();
    expect(remoteUrlProblem('http://[::1]:3000/mcp')).toBeUndefined();
    expect(remoteUrlProblem('ftp://example.com/')).toBe('unsupported URL scheme ftp (use https)');
    expect(remoteUrlProblem('http://10.0.0.5/mcp')).toBe('refusing plain http to 10.0.0.5: remote servers must use https (http is allowed only for localhost)');
  });
});
