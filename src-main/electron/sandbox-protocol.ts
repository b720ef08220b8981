import { APP_ORIGIN_LABEL, appOriginLabel } from '../core/apps/app-origin';
import { sandboxProxyReply } from '../core/apps/sandbox-proxy';

/**
 * Electron's MCP Apps sandbox (SECURITY U1, U2): the proxy page from a scheme of its own, each app on a
 * host of its own (switchboard-sandbox://app-<hash>), so an app's origin is never the UI's
 * (app://switchboard) nor another app's. The scheme is standard and secure (a real origin, postMessage
 * targets work) and nothing more: no fetch API, no CORS, no CSP bypass.
 */
export const SANDBOX_SCHEME = 'switchboard-sandbox';
/** What the UI may frame: the sandbox scheme, whose every host is an app's proxy. */
export const SANDBOX_FRAME_SOURCE = `${SANDBOX_SCHEME}:`;

/** The proxy page of the app `uri` of `server`. */
export const sandboxProxyUrl = (server: string, uri: string): string => `${SANDBOX_SCHEME}://${appOriginLabel(server, uri)}/`;

export const sandboxSchemePrivileges = { scheme: SANDBOX_SCHEME, privileges: { standard: true, secure: true } };

/** Serves the proxy page at switchboard-sandbox://app-<hash>/ and nothing else; only app://switchboard may frame it. */
export function sandboxProtocolHandler(uiOrigin: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const refuse = (status: number, text: string) =>
      new Response(`${status}: ${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Security-Policy': "default-src 'none'" } });
    if (!APP_ORIGIN_LABEL.test(url.host)) return refuse(404, `unknown host ${url.host}`);
    if (url.pathname !== '/') return refuse(404, 'nothing here but /');
    const reply = sandboxProxyReply(request.method, url.searchParams.get('csp'), uiOrigin);
    return new Response(request.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: reply.headers });
  };
}
