import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { APP_ORIGIN_LABEL } from '../core/apps/app-origin';
import { sandboxProxyReply } from '../core/apps/sandbox-proxy';

/**
 * Web mode's MCP Apps sandbox (SECURITY U1, U2): a second loopback listener, so apps run on an origin
 * that is neither the UI's nor carries its token. Each app gets a host name of its own under
 * localhost (`app-<hash>.localhost:<sandbox>`, which browsers resolve to loopback themselves): a
 * different site from the UI's 127.0.0.1 or localhost and from every other app, so the browser sends
 * none of the UI's cookies here and runs each app in its own process (a hung app stalls only itself).
 * It serves one page, GET /proxy, to one kind of request: a frame of that UI.
 */
export const SANDBOX_PATH = '/proxy';

export interface SandboxHost {
  port: number;
  /** The proxy page's address for the app named `label`, framed by a UI reached at `uiHost` (the request's Host, already checked). */
  proxyUrlFor(uiHost: string, label: string): string;
  /** What the UI may frame (its CSP's frame-src): any app's origin on this listener, nothing else. */
  frameSource: string;
  close(): Promise<void>;
}

/** The UI's loopback name rides in `?ui=` when it is not the default 127.0.0.1: the proxy must know its one parent. */
const UI_NAMES = ['127.0.0.1', 'localhost'];
const uiNameOf = (uiHost: string): string => (uiHost.toLowerCase().startsWith('localhost:') ? 'localhost' : '127.0.0.1');

export async function startSandboxHost(uiPort: () => number): Promise<SandboxHost> {
  let port = 0;
  const server = createServer((req, res) => serve(req, res));

  function serve(req: IncomingMessage, res: ServerResponse): void {
    // DNS rebinding: only an app's own name under localhost (which never resolves off this machine).
    const host = (req.headers.host ?? '').toLowerCase();
    const [label, rest] = host.split(/\.(?=localhost:)/, 2);
    if (label === undefined || rest !== `localhost:${port}` || !APP_ORIGIN_LABEL.test(label)) {
      return plain(res, 403, `Host "${host.slice(0, 100)}" is not an app's sandbox on this server (expected app-<hash>.localhost:${port})`);
    }
    const url = URL.canParse(req.url ?? '/', 'http://sandbox') ? new URL(req.url ?? '/', 'http://sandbox') : undefined;
    if (!url) return plain(res, 400, 'the request target is not a valid URL path');
    if (url.pathname !== SANDBOX_PATH) return plain(res, 404, `nothing here but ${SANDBOX_PATH}`);
    // Browsers say what a request is for; this page is only ever a frame (a top-level visit or a fetch is refused).
    const dest = req.headers['sec-fetch-dest'];
    if (dest !== undefined && dest !== 'iframe') return plain(res, 403, `the sandbox page is only served to a frame (this request is for "${String(dest)}")`);
    const uiName = url.searchParams.get('ui') ?? '127.0.0.1';
    if (!UI_NAMES.includes(uiName)) return plain(res, 400, `the ui parameter must be 127.0.0.1 or localhost, not "${uiName.slice(0, 100)}"`);
    const uiOrigin = `http://${uiName}:${uiPort()}`;
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
    proxyUrlFor: (uiHost, label) => {
      const url = new URL(`http://${label}.localhost:${port}${SANDBOX_PATH}`);
      if (uiNameOf(uiHost) !== '127.0.0.1') url.searchParams.set('ui', uiNameOf(uiHost));
      return url.href;
    },
    frameSource: `http://*.localhost:${port}`,
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
