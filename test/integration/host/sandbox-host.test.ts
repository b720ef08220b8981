/**
 * Web mode's MCP Apps sandbox listener (SECURITY U1, U2, T2): its own port, the other loopback name,
 * one page for frames of this UI only, nothing token-bearing; and how the UI learns where it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { rendererCsp } from '../../../src-main/core/csp';
import { cookieFor, rawRequest, startFixture, type HostFixture } from './host-fixture';

let fx: HostFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.cleanup());

const sandbox = (headers: Record<string, string>, path = '/proxy', method = 'GET') => rawRequest(fx.host.sandboxPort, { path, method, headers });

describe('the apps sandbox listener', () => {
  it('listens on a port of its own', () => {
    expect(fx.host.sandboxPort).toBeGreaterThan(0);
    expect(fx.host.sandboxPort).not.toBe(fx.host.port);
  });

  it('serves the proxy to a frame of the UI on 127.0.0.1 when reached as localhost, and the other way round', async () => {
    const asLocalhost = await sandbox({ Host: `localhost:${fx.host.sandboxPort}`, 'Sec-Fetch-Dest': 'iframe' });
    expect(asLocalhost.status).toBe(200);
    expect(asLocalhost.headers['content-security-policy']).toContain(`frame-ancestors http://127.0.0.1:${fx.host.port}`);
    expect(asLocalhost.headers['cache-control']).toBe('no-store');
    expect(asLocalhost.body).toContain(`const HOST = "http://127.0.0.1:${fx.host.port}";`);
    const asLoopbackIp = await sandbox({ Host: `127.0.0.1:${fx.host.sandboxPort}` });
    expect(asLoopbackIp.headers['content-security-policy']).toContain(`frame-ancestors http://localhost:${fx.host.port}`);
  });

  it('carries nothing of the UI’s token, even when the browser sends the UI’s cookie along', async () => {
    const reply = await sandbox({ Host: `localhost:${fx.host.sandboxPort}`, Cookie: cookieFor(fx.host) });
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.body).not.toContain(fx.host.token);
    expect(JSON.stringify(reply.headers)).not.toContain(fx.host.token);
  });

  it('refuses a foreign Host, another path, a POST and anything but a frame, each with its reason', async () => {
    const host = `localhost:${fx.host.sandboxPort}`;
    const foreign = await sandbox({ Host: `evil.example:${fx.host.sandboxPort}` });
    expect([foreign.status, foreign.body]).toEqual([403, `403: Host "evil.example:${fx.host.sandboxPort}" is not this server (expected 127.0.0.1:${fx.host.sandboxPort} or localhost:${fx.host.sandboxPort})\n`]);
    const other = await sandbox({ Host: host }, '/index.html');
    expect([other.status, other.body]).toEqual([404, '404: nothing here but /proxy\n']);
    const post = await sandbox({ Host: host }, '/proxy', 'POST');
    expect([post.status, post.body]).toEqual([405, '405: method POST is not allowed\n']);
    const visit = await sandbox({ Host: host, 'Sec-Fetch-Dest': 'document' });
    expect([visit.status, visit.body]).toEqual([403, '403: the sandbox page is only served to a frame (this request is for "document")\n']);
  });

  it('is not the UI: the UI’s files are not served there, and the sandbox page is not served by the UI listener', async () => {
    const notUi = await sandbox({ Host: `localhost:${fx.host.sandboxPort}`, Cookie: cookieFor(fx.host) }, '/');
    expect(notUi.status).toBe(404);
    const ui = await rawRequest(fx.host.port, { path: '/proxy', headers: { Cookie: cookieFor(fx.host) } });
    expect(ui.status).toBe(404);
  });
});

describe('the UI and its sandbox', () => {
  it('lets the UI frame exactly its sandbox origin, per the name it was reached by', async () => {
    const byIp = await rawRequest(fx.host.port, { headers: { Cookie: cookieFor(fx.host) } });
    expect(byIp.headers['content-security-policy']).toBe(rendererCsp(`http://localhost:${fx.host.sandboxPort}`));
    const byName = await rawRequest(fx.host.port, { headers: { Host: `localhost:${fx.host.port}`, Cookie: cookieFor(fx.host) } });
    expect(byName.headers['content-security-policy']).toBe(rendererCsp(`http://127.0.0.1:${fx.host.sandboxPort}`));
  });

  it('tells each browser the proxy address that pairs with its own host name', async () => {
    const ask = async (uiHost: string) => {
      const socket = new WebSocket(`ws://127.0.0.1:${fx.host.port}/ws?token=${fx.host.token}`, { origin: `http://${uiHost}`, headers: { Host: uiHost } });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const reply = new Promise<unknown>((resolve) => socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string };
        if (message.type === 'result') resolve(message);
      }));
      socket.send(JSON.stringify({ type: 'invoke', id: 1, method: 'appSandbox', payload: {} }));
      const answer = await reply;
      socket.close();
      return answer;
    };
    expect(await ask(`127.0.0.1:${fx.host.port}`)).toEqual({ type: 'result', id: 1, result: { ok: true, value: { url: `http://localhost:${fx.host.sandboxPort}/proxy` } } });
    expect(await ask(`localhost:${fx.host.port}`)).toEqual({ type: 'result', id: 1, result: { ok: true, value: { url: `http://127.0.0.1:${fx.host.sandboxPort}/proxy` } } });
  });
});
