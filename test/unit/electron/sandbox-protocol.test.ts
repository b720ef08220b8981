import { describe, expect, it } from 'vitest';
import { buildAppCsp } from '../../../src-main/core/apps/app-csp';
import { APP_ORIGIN } from '../../../src-main/electron/app-protocol';
import { SANDBOX_ORIGIN, SANDBOX_PROXY_URL, sandboxProtocolHandler } from '../../../src-main/electron/sandbox-protocol';

const serve = sandboxProtocolHandler(APP_ORIGIN);

describe('the switchboard-sandbox:// protocol (SECURITY U1, U2)', () => {
  it('is an origin of its own, never the UI’s', () => {
    expect(SANDBOX_ORIGIN).toBe('switchboard-sandbox://proxy');
    expect(SANDBOX_ORIGIN).not.toBe(APP_ORIGIN);
  });

  it('serves the proxy page with the app’s CSP, framable by app://switchboard only, never cached', async () => {
    const csp = { connectDomains: ['https://api.example.com'] };
    const response = await serve(new Request(`${SANDBOX_PROXY_URL}?csp=${encodeURIComponent(JSON.stringify(csp))}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(buildAppCsp(csp, 'app://switchboard').policy);
    expect(response.headers.get('content-security-policy')).toContain('frame-ancestors app://switchboard');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('const HOST = "app://switchboard";');
  });

  it('serves nothing else: another host, another path, a POST, a broken csp', async () => {
    const answer = async (request: Request) => {
      const r = await serve(request);
      return [r.status, await r.text()];
    };
    expect(await answer(new Request('switchboard-sandbox://elsewhere/'))).toEqual([404, '404: unknown host elsewhere\n']);
    expect(await answer(new Request('switchboard-sandbox://proxy/index.html'))).toEqual([404, '404: nothing here but /\n']);
    expect(await answer(new Request(SANDBOX_PROXY_URL, { method: 'POST', body: 'x' }))).toEqual([405, '405: method POST is not allowed\n']);
    expect(await answer(new Request(`${SANDBOX_PROXY_URL}?csp=%7B`))).toEqual([400, '400: the csp parameter is not JSON\n']);
  });
});
