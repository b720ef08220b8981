import { describe, expect, it } from 'vitest';
import { appOriginLabel } from '../../../src-main/core/apps/app-origin';
import { buildAppCsp } from '../../../src-main/core/apps/app-csp';
import { APP_CSP, APP_ORIGIN } from '../../../src-main/electron/app-protocol';
import { sandboxProtocolHandler, sandboxProxyUrl } from '../../../src-main/electron/sandbox-protocol';

const serve = sandboxProtocolHandler(APP_ORIGIN);
const VIEWER = sandboxProxyUrl('pdf', 'ui://pdf/viewer');

describe('the switchboard-sandbox:// protocol (SECURITY U1, U2)', () => {
  it('gives each app an origin of its own, never the UI’s and never another app’s, the same on every ask', () => {
    expect(VIEWER).toBe(`switchboard-sandbox://${appOriginLabel('pdf', 'ui://pdf/viewer')}/`);
    expect(new URL(VIEWER).origin).not.toBe(APP_ORIGIN);
    expect(new URL(sandboxProxyUrl('pdf', 'ui://pdf/other')).host).not.toBe(new URL(VIEWER).host);
    expect(new URL(sandboxProxyUrl('docs', 'ui://pdf/viewer')).host).not.toBe(new URL(VIEWER).host);
    expect(sandboxProxyUrl('pdf', 'ui://pdf/viewer')).toBe(VIEWER);
    // The UI may frame the sandbox scheme (every app's proxy) and nothing else.
    expect(APP_CSP).toContain('frame-src switchboard-sandbox:;');
  });

  it('serves the proxy page with the app’s CSP, framable by app://switchboard only, never cached', async () => {
    const csp = { connectDomains: ['https://api.example.com'] };
    const response = await serve(new Request(`${VIEWER}?csp=${encodeURIComponent(JSON.stringify(csp))}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(buildAppCsp(csp, 'app://switchboard').policy);
    expect(response.headers.get('content-security-policy')).toContain('frame-ancestors app://switchboard');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('const HOST = "app://switchboard";');
  });

  it('serves nothing else: a host that is not an app’s, another path, a POST, a broken csp', async () => {
    const answer = async (request: Request) => {
      const r = await serve(request);
      return [r.status, await r.text()];
    };
    expect(await answer(new Request('switchboard-sandbox://proxy/'))).toEqual([404, '404: unknown host proxy\n']);
    expect(await answer(new Request('switchboard-sandbox://app-1234/'))).toEqual([404, '404: unknown host app-1234\n']);
    expect(await answer(new Request(`${VIEWER}index.html`))).toEqual([404, '404: nothing here but /\n']);
    expect(await answer(new Request(VIEWER, { method: 'POST', body: 'x' }))).toEqual([405, '405: method POST is not allowed\n']);
    expect(await answer(new Request(`${VIEWER}?csp=%7B`))).toEqual([400, '400: the csp parameter is not JSON\n']);
  });
});
