/**
 * Web mode's MCP Apps sandbox listener (SECURITY U1, U2, T2): its own port, each app on a name of its own
 * under localhost, one page for frames of this UI only, nothing token-bearing; and how the UI learns where it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { appOriginLabel } from '../../../src-main/core/apps/app-origin';
import { rendererCsp } from '../../../src-main/core/csp';
import { cookieFor, rawRequest, startFixture, type HostFixture } from './host-fixture';

let fx: HostFixture;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.cleanup());

const sandbox = (headers: Record<string, string>, path = '/proxy', method = 'GET') => rawRequest(fx.host.sandboxPort, { path, method, headers });
const VIEWER = appOriginLabel('pdf', 'ui://pdf/viewer');
const appHost = (label = VIEWER) => `${label}.localhost:${fx.host.sandboxPort}`;

describe('the apps sandbox listener', () => {
  it('listens on a port of its own', () => {
    expect(fx.host.sandboxPort).toBeGreaterThan(0);
    expect(fx.host.sandboxPort).not.toBe(fx.host.port);
  });

  it('serves an app’s proxy to a frame of the UI on 127.0.0.1, or of the UI on localhost when the page says so', async () => {
    const forIp = await sandbox({ Host: appHost(), 'Sec-Fetch-Dest': 'iframe' });
    expect(forIp.status).toBe(200);
    expect(forIp.headers['content-security-policy']).toContain(`frame-ancestors http://127.0.0.1:${fx.host.port}`);
    expect(forIp.headers['cache-control']).toBe('no-store');
    expect(forIp.body).toContain(`const HOST = "http://127.0.0.1:${fx.host.port}";`);
    const forName = await sandbox({ Host: appHost() }, '/proxy?ui=localhost');
    expect(forName.headers['content-security-policy']).toContain(`frame-ancestors http://localhost:${fx.host.port}`);
    const forElsewhere = await sandbox({ Host: appHost() }, '/proxy?ui=evil.example');
    expect([forElsewhere.status, forElsewhere.body]).toEqual([400, '400: the ui parameter must be 127.0.0.1 or localhost, not "evil.example"\n']);
  });

  it('carries nothing of the UI’s token, even when the browser sends the UI’s cookie along', async () => {
    const reply = await sandbox({ Host: appHost(), Cookie: cookieFor(fx.host) });
    expect(reply.status).toBe(200);
    expect(reply.headers['set-cookie']).toBeUndefined();
    expect(reply.body).not.toContain(fx.host.token);
    expect(JSON.stringify(reply.headers)).not.toContain(fx.host.token);
  });

  it('refuses a Host that is not an app’s name, another path, a POST and anything but a frame, each with its reason', async () => {
    const expected = `(expected app-<hash>.localhost:${fx.host.sandboxPort})`;
    for (const host of [`evil.example:${fx.host.sandboxPort}`, `localhost:${fx.host.sandboxPort}`, `127.0.0.1:${fx.host.sandboxPort}`, `app-1.localhost:${fx.host.sandboxPort}`, `${VIEWER}.localhost:1`, `${VIEWER}.localhost.evil.example:${fx.host.sandboxPort}`]) {
      const refused = await sandbox({ Host: host });
      expect([refused.status, refused.body]).toEqual([403, `403: Host "${host}" is not an app's sandbox on this server ${expected}\n`]);
    }
    const other = await sandbox({ Host: appHost() }, '/index.html');
    expect([other.status, other.body]).toEqual([404, '404: nothing here but /proxy\n']);
    const post = await sandbox({ Host: appHost() }, '/proxy', 'POST');
    expect([post.status, post.body]).toEqual([405, '405: method POST is not allowed\n']);
    const visit = await sandbox({ Host: appHost(), 'Sec-Fetch-Dest': 'document' });
    expect([visit.status, visit.body]).toEqual([403, '403: the sandbox page is only served to a frame (this request is for "document")\n']);
  });

  it('is not the UI: the UI’s files are not served there, and the sandbox page is not served by the UI listener', async () => {
    const notUi = await sandbox({ Host: appHost(), Cookie: cookieFor(fx.host) }, '/');
    expect(notUi.status).toBe(404);
    const ui = await rawRequest(fx.host.port, { path: '/proxy', headers: { Cookie: cookieFor(fx.host) } });
    expect(ui.status).toBe(404);
  });
});

describe('the UI and its sandbox', () => {
  it('lets the UI frame its apps’ origins on the sandbox listener and nothing else, whichever name it was reached by', async () => {
    const byIp = await rawRequest(fx.host.port, { headers: { Cookie: cookieFor(fx.host) } });
    expect(byIp.headers['content-security-policy']).toBe(rendererCsp(`http://*.localhost:${fx.host.sandboxPort}`));
    const byName = await rawRequest(fx.host.port, { headers: { Host: `localhost:${fx.host.port}`, Cookie: cookieFor(fx.host) } });
    expect(byName.headers['content-security-policy']).toBe(rendererCsp(`http://*.localhost:${fx.host.sandboxPort}`));
  });

  it('tells each browser its app’s own proxy address, paired with the name the UI is on', async () => {
    const ask = async (uiHost: string, app: { server: string; uri: string }) => {
      const socket = new WebSocket(`ws://127.0.0.1:${fx.host.port}/ws?token=${fx.host.token}`, { origin: `http://${uiHost}`, headers: { Host: uiHost } });
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const reply = new Promise<unknown>((resolve) => socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { type: string };
        if (message.type === 'result') resolve(message);
      }));
      socket.send(JSON.stringify({ type: 'invoke', id: 1, method: 'appSandbox', payload: app }));
      const answer = await reply;
      socket.close();
      return answer;
    };
    const viewer = { server: 'pdf', uri: 'ui://pdf/viewer' };
    expect(await ask(`127.0.0.1:${fx.host.port}`, viewer)).toEqual({ type: 'result', id: 1, result: { ok: true, value: { url: `http://${appHost()}/proxy` } } });
    expect(await ask(`localhost:${fx.host.port}`, viewer)).toEqual({ type: 'result', id: 1, result: { ok: true, value: { url: `http://${appHost()}/proxy?ui=localhost` } } });
    const other = { server: 'monitor', uri: 'ui://monitor/app' };
    expect(await ask(`127.0.0.1:${fx.host.port}`, other)).toEqual({ type: 'result', id: 1, result: { ok: true, value: { url: `http://${appHost(appOriginLabel('monitor', 'ui://monitor/app'))}/proxy` } } });
    expect(appOriginLabel('monitor', 'ui://monitor/app')).not.toBe(VIEWER);
    const refused = (await ask(`127.0.0.1:${fx.host.port}`, { server: 'pdf', uri: 'https://evil.example/' })) as { result: { ok: boolean; error: { message: string } } };
    expect(refused.result.ok).toBe(false);
    expect(refused.result.error.message).toContain('an app resource URI starts with ui://');
  });
});
