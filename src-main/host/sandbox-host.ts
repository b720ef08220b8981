import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { sandboxProxyReply } from '../core/apps/sandbox-proxy';
import { checkHost } from './request-guard';

/**
 * Web mode's MCP Apps sandbox (SECURITY U1, U2): a second loopback listener, so apps run on an origin
 * that is neither the UI's nor carries its token. The UI on 127.0.0.1:<ui> frames the proxy from
 * localhost:<sandbox> and the other way round: a different host name is a different site, so the
 * browser does not even send the UI's token cookie here (cookies ignore ports, not host names).
 * It serves one page, GET /proxy, to one kind of request: a frame of that UI.
 */
export const SANDBOX_PATH = '/proxy';

export interface SandboxHost {
  port: number;
  /** The proxy page's address for a UI reached at `uiHost` (the request's Host, already checked). */
  proxyUrlFor(uiHost: string): string;
  /** The sandbox origin a UI at `uiHost` may frame (its CSP's frame-src). */
  originFor(uiHost: string): string;
  close(): Promise<void>;
}

/** The loopback name the UI is not on: the sandbox must be cross-site to the UI. */
const otherLoopbackName = (uiHost: string): string => (uiHost.toLowerCase().startsWith('localhost:') ? '127.0.0.1' : 'localhost');

export async function startSandboxHost(uiPort: () => number): Promise<SandboxHost> {
  let port = 0;
  const server = createServer((req, res) => serve(req, res));

  function serve(req: IncomingMessage, res: ServerResponse): void {
    const host = checkHost(req, port);
    if (!host.ok) return plain(res, host.status, host.reason);
    const url = URL.canParse(req.url ?? '/', 'http://sandbox') ? new URL(req.url ?? '/', 'http://sandbox') : undefined;
    if (!url) return plain(res, 400, 'the request target is not a valid URL path');
    if (url.pathname !== SANDBOX_PATH) return plain(res, 404, `nothing here but ${SANDBOX_PATH}`);
    // Browsers say what a request is for; this page is only ever a frame (a top-level visit or a fetch is refused).
    const dest = req.headers['sec-fetch-dest'];
    if (dest !== undefined && dest !== 'iframe') return plain(res, 403, `the sandbox page is only served to a frame (this request is for "${String(dest)}")`);
    // Served as localhost:<sandbox>, the page belongs to the UI on 127.0.0.1:<ui>, and the other way round.
    const uiOrigin = `http://${otherLoopbackName(req.headers.host ?? '')}:${uiPort()}`;
    const reply = sandboxProxyReply(req.method ?? 'GET', url.searchParams.get('csp'), uiOrigin);
    res.writeHead(reply.status, { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body) });
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  }

  port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    // Loopback only, an OS-chosen port (SECURITY T2).
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('sandbox host: the server has no TCP address'));
      resolve(address.port);
    });
  });

  return {
    port,
    proxyUrlFor: (uiHost) => `http://${otherLoopbackName(uiHost)}:${port}${SANDBOX_PATH}`,
    originFor: (uiHost) => `http://${otherLoopbackName(uiHost)}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function plain(res: ServerResponse, status: number, reason: string): void {
  const body = `${status}: ${reason}\n`;
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'" });
  res.end(body);
}
