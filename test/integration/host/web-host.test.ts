import { connect as netConnect } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CONTENT_SECURITY_POLICY, rendererCsp } from '../../../src-main/core/csp';
import { startWebHost } from '../../../src-main/host/web-host';
import { cookieFor, originOf, rawRequest, SECRET_OUTSIDE, startFixture, type HostFixture } from './host-fixture';

let fx: HostFixture;
const openSockets: WebSocket[] = [];

beforeAll(async () => {
  fx = await startFixture();
});
afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.terminate();
});
afterAll(async () => {
  await fx?.cleanup();
});

const authed = (extra: Record<string, string> = {}) => ({ Cookie: cookieFor(fx.host), ...extra });

/** A WebSocket the way a browser opens one: Origin set, token by cookie unless told otherwise. */
function socketOptions(headers: Record<string, string>, origin: string | undefined) {
  return { headers, ...(origin === undefined ? {} : { origin }) };
}

function openSocket(options: { path?: string; origin?: string | undefined; headers?: Record<string, string> } = {}): Promise<WebSocket> {
  const origin = 'origin' in options ? options.origin : originOf(fx.host);
  const socket = new WebSocket(`ws://127.0.0.1:${fx.host.port}${options.path ?? '/ws'}`, socketOptions(options.headers ?? authed(), origin));
  openSockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`refused with ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Open an upgrade that the host must refuse; returns the status and body it answered with. */
function refusedUpgrade(options: { path?: string; origin?: string | undefined; headers?: Record<string, string> }): Promise<{ status: number; body: string }> {
  const origin = 'origin' in options ? options.origin : originOf(fx.host);
  const socket = new WebSocket(`ws://127.0.0.1:${fx.host.port}${options.path ?? '/ws'}`, socketOptions(options.headers ?? authed(), origin));
  openSockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    socket.once('error', reject);
  });
}

/** Inbound messages in order, parsed. */
function inbox(socket: WebSocket) {
  const queue: unknown[] = [];
  const waiters: Array<(m: unknown) => void> = [];
  socket.on('message', (data: Buffer) => {
    const message: unknown = JSON.parse(data.toString('utf8'));
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  return {
    next: (): Promise<unknown> => (queue.length > 0 ? Promise.resolve(queue.shift()) : new Promise((resolve) => waiters.push(resolve))),
  };
}

async function roundtrip(socket: WebSocket, next: () => Promise<unknown>, message: unknown): Promise<unknown> {
  socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  return next();
}

function connectOutcome(address: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('web host: where it listens (T2)', () => {
  it('prints a 127.0.0.1 address carrying a 32-byte base64url token', () => {
    expect(fx.host.url).toBe(`http://127.0.0.1:${fx.host.port}/?token=${fx.host.token}`);
    expect(fx.host.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(fx.host.token, 'base64url')).toHaveLength(32);
  });

  it.runIf(process.platform === 'linux')('accepts connections on 127.0.0.1 only, not on other loopback or IPv6 addresses', async () => {
    expect(await connectOutcome('127.0.0.1', fx.host.port)).toBe('connected');
    // Bound to 0.0.0.0, the port would answer on 127.0.0.2 as well.
    expect(await connectOutcome('127.0.0.2', fx.host.port)).toBe('ECONNREFUSED');
    expect(['ECONNREFUSED', 'EADDRNOTAVAIL', 'ENETUNREACH']).toContain(await connectOutcome('::1', fx.host.port));
  });

  it('gives every launch its own port and token', async () => {
    const other = await startWebHost({ handlers: fx.core.handlers, events: fx.core.events, rendererDir: fx.rendererDir });
    try {
      expect(other.port).not.toBe(fx.host.port);
      expect(other.token).not.toBe(fx.host.token);
      // The other launch's token is no key to this one.
      const reply = await rawRequest(fx.host.port, { headers: { Cookie: `switchboard_token_${fx.host.port}=${other.token}` } });
      expect(reply.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('refuses a token shorter than 32 characters', async () => {
    await expect(startWebHost({ handlers: fx.core.handlers, events: fx.core.events, rendererDir: fx.rendererDir, token: 'short' })).rejects.toThrow(
      'web host: the token must be at least 32 characters',
    );
  });

  it('names the port when it is already taken', async () => {
    await expect(startWebHost({ handlers: fx.core.handlers, events: fx.core.events, rendererDir: fx.rendererDir, port: fx.host.port })).rejects.toThrow(
      `web host: port ${fx.host.port} on 127.0.0.1 is already in use`,
    );
  });
});

describe('web host: preparing the first answers while the browser compiles the page', () => {
  it('calls onScriptSent once, after the first script a browser with the token was sent; pages, styles and refusals do not count', async () => {
    let calls = 0;
    const host = await startWebHost({ handlers: fx.core.handlers, events: fx.core.events, rendererDir: fx.rendererDir, onScriptSent: () => calls++ });
    try {
      const cookie = { Cookie: cookieFor(host) };
      expect((await rawRequest(host.port, { headers: cookie })).status).toBe(200);
      expect((await rawRequest(host.port, { path: '/assets/style.css', headers: cookie })).status).toBe(200);
      expect((await rawRequest(host.port, { path: '/assets/app.js' })).status).toBe(401);
      expect((await rawRequest(host.port, { path: '/assets/app.js', method: 'HEAD', headers: cookie })).status).toBe(200);
      expect(calls).toBe(0);
      const script = await rawRequest(host.port, { path: '/assets/app.js', headers: cookie });
      expect(script.body).toContain('document.getElementById');
      // Once the host has seen the response end (the client can have it a moment before).
      await expect.poll(() => calls, { timeout: 30_000 }).toBe(1);
      await rawRequest(host.port, { path: '/assets/app.js', headers: cookie });
      // Closing waits for every connection to end, so a second call would have come by now, however slow the machine.
      await host.close();
      expect(calls).toBe(1);
    } finally {
      await host.close();
    }
  });
});

describe('web host: HTTP token, Host and Origin checks (T2)', () => {
  it('answers 401 without a token, naming what is missing', async () => {
    const reply = await rawRequest(fx.host.port);
    expect(reply.status).toBe(401);
    expect(reply.body).toBe("401: no token: open the address Switchboard printed when it started (it carries ?token=…)\n");
    expect(reply.body).not.toContain('<html');
  });

  it('answers 401 to a wrong token in the query or in the cookie', async () => {
    const wrong = 'A'.repeat(43);
    const expected = '401: wrong token: open the address this Switchboard printed when it started; tokens change at every launch\n';
    for (const reply of [
      await rawRequest(fx.host.port, { path: `/?token=${wrong}` }),
      await rawRequest(fx.host.port, { headers: { Cookie: cookieFor(fx.host, wrong) } }),
      // A valid cookie does not rescue a wrong ?token=.
      await rawRequest(fx.host.port, { path: `/index.html?token=${wrong}`, headers: authed() }),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toBe(expected);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });

  it('ignores a token cookie named for another port', async () => {
    const reply = await rawRequest(fx.host.port, { headers: { Cookie: `switchboard_token_1=${fx.host.token}` } });
    expect(reply.status).toBe(401);
  });

  it('answers 403 to a Host header that is not this server, even with the right token (DNS rebinding)', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ Host: `evil.example:${fx.host.port}` }, `403: Host "evil.example:${fx.host.port}" is not this server (expected 127.0.0.1:${fx.host.port} or localhost:${fx.host.port})\n`],
      [{ Host: '127.0.0.1' }, `403: Host "127.0.0.1" is not this server (expected 127.0.0.1:${fx.host.port} or localhost:${fx.host.port})\n`],
      [{ Host: `127.0.0.1:${fx.host.port + 1}` }, `403: Host "127.0.0.1:${fx.host.port + 1}" is not this server (expected 127.0.0.1:${fx.host.port} or localhost:${fx.host.port})\n`],
    ];
    for (const [headers, body] of cases) {
      const reply = await rawRequest(fx.host.port, { path: `/?token=${fx.host.token}`, headers: { ...headers, Cookie: cookieFor(fx.host) } });
      expect(reply.status).toBe(403);
      expect(reply.body).toBe(body);
      expect(reply.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a request without a Host header', async () => {
    // Node's HTTP parser answers 400 before the host sees it (HTTP/1.1 requires Host).
    const reply = await rawRequest(fx.host.port, { path: `/?token=${fx.host.token}`, headers: { Cookie: cookieFor(fx.host) }, omitHost: true });
    expect(reply.status).toBe(400);
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.body).not.toContain('Switchboard test page');
  });

  it('accepts localhost:<port> as the Host', async () => {
    const reply = await rawRequest(fx.host.port, { headers: authed({ Host: `localhost:${fx.host.port}` }) });
    expect(reply.status).toBe(200);
  });

  it('answers 403 to an Origin that is not this server, even with the right token', async () => {
    for (const origin of ['http://evil.example', 'null', `https://127.0.0.1:${fx.host.port}`, `http://127.0.0.1:${fx.host.port + 1}`]) {
      const reply = await rawRequest(fx.host.port, { headers: authed({ Origin: origin }) });
      expect(reply.status).toBe(403);
      expect(reply.body).toBe(`403: Origin "${origin}" is not this server (expected http://127.0.0.1:${fx.host.port} or http://localhost:${fx.host.port})\n`);
    }
  });

  it('serves a request from its own Origin', async () => {
    for (const origin of [`http://127.0.0.1:${fx.host.port}`, `http://localhost:${fx.host.port}`]) {
      const reply = await rawRequest(fx.host.port, { path: '/assets/app.js', headers: authed({ Origin: origin }) });
      expect(reply.status).toBe(200);
    }
  });
});

describe('web host: token cookie flow', () => {
  it('trades ?token= for an HttpOnly SameSite=Strict cookie and redirects to /', async () => {
    const first = await rawRequest(fx.host.port, { path: `/?token=${fx.host.token}` });
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/');
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['set-cookie']).toEqual([`switchboard_token_${fx.host.port}=${fx.host.token}; HttpOnly; SameSite=Strict; Path=/`]);

    const cookie = first.headers['set-cookie']![0]!.split(';')[0]!;
    const page = await rawRequest(fx.host.port, { path: first.headers.location, headers: { Cookie: `other=1; ${cookie}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Switchboard test page');
  });

  it('keeps other query parameters through the redirect', async () => {
    const first = await rawRequest(fx.host.port, { path: `/?view=servers&token=${fx.host.token}` });
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe('/?view=servers');
  });

  it('serves an asset to ?token= directly, without a redirect', async () => {
    const reply = await rawRequest(fx.host.port, { path: `/assets/app.js?token=${fx.host.token}` });
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toBeUndefined();
  });
});

describe('web host: static files', () => {
  it('serves index.html for / with the CSP, nosniff and no-referrer', async () => {
    const reply = await rawRequest(fx.host.port, { headers: authed() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    // The UI may frame its apps' sandbox origins (each app's own name under localhost) and nothing else (SECURITY U1).
    expect(reply.headers['content-security-policy']).toBe(rendererCsp(`http://*.localhost:${fx.host.sandboxPort}`));
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['referrer-policy']).toBe('no-referrer');
    expect(reply.body).toContain('<title>Switchboard test page</title>');
  });

  it('sends the same security headers on refusals', async () => {
    for (const reply of [await rawRequest(fx.host.port), await rawRequest(fx.host.port, { headers: { Host: 'evil.example' } })]) {
      expect(reply.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    }
  });

  it.each([
    ['/assets/app.js', 'text/javascript; charset=utf-8', 'document.getElementById'],
    ['/assets/style.css', 'text/css; charset=utf-8', 'font-family'],
    ['/assets/logo.svg', 'image/svg+xml', '<svg'],
    ['/index.html', 'text/html; charset=utf-8', '<!doctype html>'],
  ])('serves %s as %s', async (path, type, text) => {
    const reply = await rawRequest(fx.host.port, { path, headers: authed() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe(type);
    expect(reply.body).toContain(text);
  });

  it('answers HEAD with the headers and no body', async () => {
    const reply = await rawRequest(fx.host.port, { path: '/assets/app.js', method: 'HEAD', headers: authed() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(0);
    expect(reply.body).toBe('');
  });

  it.each([
    ['/..%2fsecret.txt', 403, '403: the path "/..%2fsecret.txt" leads outside the app folder\n'],
    ['/assets/..%2F..%2Fsecret.txt', 403, '403: the path "/assets/..%2F..%2Fsecret.txt" leads outside the app folder\n'],
    ['/assets/link-out.txt', 403, '403: the path "/assets/link-out.txt" leads outside the app folder\n'],
    // The URL parser folds these dot segments before we look, so they stay inside and find nothing.
    ['/../secret.txt', 404, '404: no file at "/secret.txt"\n'],
    ['/%2e%2e/secret.txt', 404, '404: no file at "/secret.txt"\n'],
    ['/assets/%E0%A4%A', 400, '400: the path "/assets/%E0%A4%A" is not valid percent-encoding\n'],
    ['/assets/a%00b.js', 400, '400: the path contains a NUL character\n'],
    ['/assets', 404, '404: no file at "/assets"\n'],
    ['/missing.js', 404, '404: no file at "/missing.js"\n'],
  ])('refuses %s with %i and never serves what lies outside', async (path, status, body) => {
    const reply = await rawRequest(fx.host.port, { path, headers: authed() });
    expect(reply.status).toBe(status);
    expect(reply.body).toBe(body);
    expect(reply.body).not.toContain(SECRET_OUTSIDE);
  });

  it('answers 400 to a request target that is not a URL, for pages and upgrades alike, and keeps serving', async () => {
    const send = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const raw = netConnect({ host: '127.0.0.1', port: fx.host.port });
        let answer = '';
        raw.on('data', (d: Buffer) => (answer += d.toString('latin1')));
        raw.on('end', () => resolve(answer));
        raw.on('error', reject);
        raw.write(request);
      });
    const head = `Host: 127.0.0.1:${fx.host.port}\r\nCookie: ${cookieFor(fx.host)}\r\nConnection: close\r\n`;
    const page = await send(`GET http://[bad/ HTTP/1.1\r\n${head}\r\n`);
    expect(page).toMatch(/^HTTP\/1\.1 400 /);
    expect(page).toContain('400: the request target is not a valid URL path');
    const upgrade = await send(
      `GET http://[bad/ws HTTP/1.1\r\n${head}Origin: ${originOf(fx.host)}\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`.replace('Connection: close', 'Connection: Upgrade'),
    );
    expect(upgrade).toMatch(/^HTTP\/1\.1 400 Bad Request/);
    expect(upgrade).toContain('400: the request target is not a valid URL path');
    expect((await rawRequest(fx.host.port, { headers: authed() })).status).toBe(200);
  });

  it('refuses methods other than GET and HEAD', async () => {
    const reply = await rawRequest(fx.host.port, { method: 'POST', headers: authed() });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
    expect(reply.body).toBe('405: method POST is not allowed; this server only serves files\n');
  });
});

describe('web host: WebSocket upgrade checks (T2)', () => {
  it('refuses an upgrade without an Origin', async () => {
    expect(await refusedUpgrade({ origin: undefined })).toEqual({ status: 403, body: '403: the WebSocket request has no Origin header\n' });
  });

  it('refuses an upgrade from another Origin, even with the right token', async () => {
    expect(await refusedUpgrade({ origin: 'http://evil.example' })).toEqual({
      status: 403,
      body: `403: Origin "http://evil.example" is not this server (expected http://127.0.0.1:${fx.host.port} or http://localhost:${fx.host.port})\n`,
    });
  });

  it('refuses an upgrade with a foreign Host', async () => {
    const refused = await refusedUpgrade({ headers: authed({ Host: 'evil.example' }) });
    expect(refused.status).toBe(403);
    expect(refused.body).toBe(`403: Host "evil.example" is not this server (expected 127.0.0.1:${fx.host.port} or localhost:${fx.host.port})\n`);
  });

  it('refuses an upgrade without a token or with a wrong one', async () => {
    expect((await refusedUpgrade({ headers: {} })).status).toBe(401);
    expect((await refusedUpgrade({ headers: { Cookie: cookieFor(fx.host, 'B'.repeat(43)) } })).status).toBe(401);
    expect((await refusedUpgrade({ path: `/ws?token=${'C'.repeat(43)}`, headers: {} })).status).toBe(401);
  });

  it('refuses an upgrade on another path', async () => {
    expect(await refusedUpgrade({ path: '/socket' })).toEqual({ status: 404, body: '404: no WebSocket endpoint at "/socket" (it is /ws)\n' });
  });

  it('accepts an upgrade by cookie or by ?token=, from localhost too', async () => {
    await openSocket();
    await openSocket({ path: `/ws?token=${fx.host.token}`, headers: {} });
    await openSocket({ origin: `http://localhost:${fx.host.port}`, headers: authed({ Host: `localhost:${fx.host.port}` }) });
  });
});

describe('web host: WebSocket protocol', () => {
  it('answers an invoke with the Result of the core handler', async () => {
    const socket = await openSocket();
    const { next } = inbox(socket);
    const reply = await roundtrip(socket, next, { type: 'invoke', id: 1, method: 'listServers', payload: {} });
    expect(reply).toEqual({ type: 'result', id: 1, result: { ok: true, value: fx.core.snapshot() } });
    expect(fx.core.snapshot().servers.map((s) => s.name)).toEqual(['alpha', 'beta']);
  });

  it('returns the contract error for a malformed payload', async () => {
    const socket = await openSocket();
    const { next } = inbox(socket);
    expect(await roundtrip(socket, next, { type: 'invoke', id: 'a', method: 'reconnectServer', payload: { name: 'bad name!' } })).toEqual({
      type: 'result',
      id: 'a',
      result: { ok: false, error: { code: 'invalid_input', message: 'reconnectServer: invalid payload at "name": server name may use only letters, digits, "_", "." and "-"' } },
    });
    expect(await roundtrip(socket, next, { type: 'invoke', id: 'b', method: 'setServerEnabled', payload: { name: 'alpha', enabled: true, extra: 1 } })).toEqual({
      type: 'result',
      id: 'b',
      result: { ok: false, error: { code: 'invalid_input', message: 'setServerEnabled: invalid payload: Unrecognized key: "extra"' } },
    });
  });

  it('answers not_found for an unknown method, and for inherited names', async () => {
    const socket = await openSocket();
    const { next } = inbox(socket);
    for (const method of ['nope', 'constructor', '__proto__', 'toString']) {
      expect(await roundtrip(socket, next, { type: 'invoke', id: 2, method, payload: {} })).toEqual({
        type: 'result',
        id: 2,
        result: { ok: false, error: { code: 'not_found', message: `unknown method: ${method}` } },
      });
    }
  });

  it('pushes every EventHub event to every connection', async () => {
    const first = await openSocket();
    const second = await openSocket();
    const firstInbox = inbox(first);
    const secondInbox = inbox(second);
    const snapshot = fx.core.snapshot();
    fx.core.events.emit('serversChanged', snapshot);
    expect(await firstInbox.next()).toEqual({ type: 'event', name: 'serversChanged', payload: snapshot });
    expect(await secondInbox.next()).toEqual({ type: 'event', name: 'serversChanged', payload: snapshot });
  });

  it('names what was wrong with a bad message and keeps the connection usable', async () => {
    const socket = await openSocket();
    const { next } = inbox(socket);
    const badJson = '{"type":"invoke",';
    let parseError = '';
    try {
      JSON.parse(badJson);
    } catch (error) {
      parseError = (error as Error).message;
    }
    let astralError = '';
    try {
      JSON.parse('𐀀');
    } catch (error) {
      astralError = (error as Error).message; // V8 quotes the first half of the pair: "Unexpected token '\ud800'…"
    }
    const cases: Array<[unknown, unknown]> = [
      [badJson, { type: 'error', message: `message is not valid JSON (${parseError})` }],
      ['𐀀', { type: 'error', message: `message is not valid JSON (${astralError.replace('\ud800', '\ufffd')})` }],
      ['[1,2]', { type: 'error', message: 'message must be a JSON object' }],
      [{ type: 'subscribe', id: 1 }, { type: 'error', message: 'message type "subscribe" is unknown (expected "invoke")' }],
      [{ id: 1 }, { type: 'error', message: 'message type missing is unknown (expected "invoke")' }],
      // Cut to 50 characters without splitting the astral character at 49–50 (half of it shows as "�").
      [{ type: `${'x'.repeat(49)}𐀀 and more` }, { type: 'error', message: `message type "${'x'.repeat(49)}" is unknown (expected "invoke")` }],
      [{ type: `${'x'.repeat(48)}𐀀 and more` }, { type: 'error', message: `message type "${'x'.repeat(48)}𐀀" is unknown (expected "invoke")` }],
      [{ type: 'invoke', method: 'listServers' }, { type: 'error', message: 'invoke needs an "id": a non-empty string of up to 100 characters or an integer' }],
      [{ type: 'invoke', id: 1.5, method: 'listServers' }, { type: 'error', message: 'invoke needs an "id": a non-empty string of up to 100 characters or an integer' }],
      [{ type: 'invoke', id: 7, method: 42 }, { type: 'error', id: 7, message: 'invoke needs a "method" string' }],
    ];
    for (const [sent, expected] of cases) expect(await roundtrip(socket, next, sent)).toEqual(expected);

    socket.send(Buffer.from('{"type":"invoke"}'), { binary: true });
    expect(await next()).toEqual({ type: 'error', message: 'binary messages are not accepted; send JSON text' });

    // Still the same connection, still answering.
    expect(socket.readyState).toBe(WebSocket.OPEN);
    const after = await roundtrip(socket, next, { type: 'invoke', id: 9, method: 'listServers', payload: {} });
    expect(after).toEqual({ type: 'result', id: 9, result: { ok: true, value: fx.core.snapshot() } });
  });

  it('closes a connection that sends more than 1 MiB with 1009, and only that one', async () => {
    const big = await openSocket();
    const other = await openSocket();
    const closed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)));
    big.send(JSON.stringify({ type: 'invoke', id: 1, method: 'listServers', payload: { pad: 'x'.repeat(1024 * 1024) } }));
    expect(await closed).toBe(1009);
    const { next } = inbox(other);
    expect(await roundtrip(other, next, { type: 'invoke', id: 1, method: 'listServers', payload: {} })).toMatchObject({ type: 'result', id: 1, result: { ok: true } });
  });

  it('cuts off a connection that stops reading once 8 MiB wait for it, and serves others on', async () => {
    // A raw client that upgrades, then never reads: its unsent events pile up in the host.
    const raw = netConnect({ host: '127.0.0.1', port: fx.host.port });
    await new Promise((resolve) => raw.once('connect', resolve));
    raw.write(
      `GET /ws?token=${fx.host.token} HTTP/1.1\r\nHost: 127.0.0.1:${fx.host.port}\r\nOrigin: ${originOf(fx.host)}\r\n` +
        'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    const handshake = await new Promise<string>((resolve) => raw.once('data', (d: Buffer) => resolve(d.toString('latin1'))));
    expect(handshake).toMatch(/^HTTP\/1\.1 101 /);
    raw.pause();
    const ended = new Promise<void>((resolve) => raw.once('close', () => resolve()));

    try {
      const big = { ...fx.core.snapshot(), configPath: 'x'.repeat(1024 * 1024) };
      for (let i = 0; i < 40; i++) fx.core.events.emit('serversChanged', big);
      raw.resume(); // drain what the kernel held; then the host's cut shows as the end of the stream
      await ended;
    } finally {
      raw.destroy();
    }

    const other = await openSocket();
    const { next } = inbox(other);
    expect(await roundtrip(other, next, { type: 'invoke', id: 1, method: 'listServers', payload: {} })).toMatchObject({ type: 'result', result: { ok: true } });
  });

  it('turns a result or event JSON cannot hold into an error naming it, without throwing into the core', async () => {
    const own = await startFixture({ wrapHandlers: (core) => ({ ...core.handlers, listTools: async () => [{ count: 1n }] as never }) });
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${own.host.port}/ws?token=${own.host.token}`, { origin: originOf(own.host) });
      openSockets.push(socket);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const inboxed = inbox(socket);
      // The core's own serversChanged from its start (coalesced, it can land after the socket opens) is not what this test is about.
      const next = async (): Promise<unknown> => {
        const message = (await inboxed.next()) as { type?: string; name?: string };
        return message.type === 'event' && message.name === 'serversChanged' ? next() : message;
      };
      expect(await roundtrip(socket, next, { type: 'invoke', id: 1, method: 'listTools', payload: {} })).toEqual({
        type: 'result',
        id: 1,
        result: { ok: false, error: { code: 'internal', message: 'the result could not be encoded as JSON: Do not know how to serialize a BigInt' } },
      });
      expect(() => own.core.events.emit('serversChanged', { ...own.core.snapshot(), extra: 1n } as never)).not.toThrow();
      expect(await next()).toEqual({ type: 'error', message: 'the serversChanged event could not be encoded as JSON: Do not know how to serialize a BigInt' });
    } finally {
      await own.cleanup();
    }
  });

  it('refuses to open a javascript: URL through openExternal before anything is spawned', async () => {
    const socket = await openSocket();
    const { next } = inbox(socket);
    expect(await roundtrip(socket, next, { type: 'invoke', id: 3, method: 'openExternal', payload: { url: 'javascript:alert(1)' } })).toEqual({
      type: 'result',
      id: 3,
      result: { ok: false, error: { code: 'invalid_input', message: 'refused to open "javascript:alert(1)": the scheme "javascript" is not allowed (only https, or http to loopback)' } },
    });
    expect(fx.spawned).toEqual([]);
  });
});

describe('web host: close', () => {
  it('says goodbye with 1001 to open sockets and stops listening', async () => {
    const own = await startFixture();
    let cleaned = false;
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${own.host.port}/ws?token=${own.host.token}`, { origin: originOf(own.host) });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      await own.cleanup();
      cleaned = true;
      expect(await closed).toBe(1001);
      expect(await connectOutcome('127.0.0.1', own.host.port)).toBe('ECONNREFUSED');
    } finally {
      if (!cleaned) await own.cleanup();
    }
  });
});
