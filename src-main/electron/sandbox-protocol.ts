import { sandboxProxyReply } from '../core/apps/sandbox-proxy';

/**
 * Electron's MCP Apps sandbox (SECURITY U1, U2): the proxy page from a scheme of its own, so an app's
 * origin (switchboard-sandbox://proxy) is never the UI's (app://switchboard). The scheme is standard and
 * secure (a real origin, postMessage targets work) and nothing more: no fetch API, no CORS, no CSP bypass.
 */
export const SANDBOX_SCHEME = 'switchboard-sandbox';
export const SANDBOX_HOST = 'proxy';
export const SANDBOX_ORIGIN = `${SANDBOX_SCHEME}://${SANDBOX_HOST}`;
export const SANDBOX_PROXY_URL = `${SANDBOX_ORIGIN}/`;

export const sandboxSchemePrivileges = { scheme: SANDBOX_SCHEME, privileges: { standard: true, secure: true } };

/** Serves the proxy page at switchboard-sandbox://proxy/ and nothing else; only app://switchboard may frame it. */
export function sandboxProtocolHandler(uiOrigin: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const refuse = (status: number, text: string) =>
      new Response(`${status}: ${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'" } });
    if (url.host !== SANDBOX_HOST) return refuse(404, `unknown host ${url.host}`);
    if (url.pathname !== '/') return refuse(404, 'nothing here but /');
    const reply = sandboxProxyReply(request.method, url.searchParams.get('csp'), uiOrigin);
    return new Response(request.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: reply.headers });
  };
}
