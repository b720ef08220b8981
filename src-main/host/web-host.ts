import { createServer, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Handlers } from '../../src-preload/contract';
import { appRequestsOfConnection } from '../core/apps/app-connection';
import { appOriginLabel } from '../core/apps/app-origin';
import { CONTENT_SECURITY_POLICY, rendererCsp } from '../core/csp';
import type { EventHub } from '../core/event-hub';
import { checkHost, checkOrigin, checkToken, newToken, presentedToken, TOKEN_QUERY, tokenCookie, type Verdict } from './request-guard';
import { startSandboxHost } from './sandbox-host';
import { findStaticFile, openStaticFile } from './static-files';
import { MAX_MESSAGE_BYTES, WS_PATH } from './ws-protocol';
import { serveConnection } from './ws-session';

export interface WebHostOptions {
  handlers: Handlers;
  events: EventHub;
  /** The built renderer (out/renderer): index.html and its assets. */
  rendererDir: string;
  /** 0 or absent: the OS picks a free port. */
  port?: number;
  /** Absent: a fresh random token for this launch. */
  token?: string;
  /**
   * Called once, after the page's first script has been sent: the browser compiles and runs it before it
   * asks for anything, so this is when to prepare the first answers (the servers snapshot) off its path.
   */
  onScriptSent?: () => void;
}

export interface WebHost {
  /** The address to open: http://127.0.0.1:<port>/?token=<token>. */
  url: string;
  port: number;
  token: string;
  /** The MCP Apps sandbox listener's port (SECURITY U1): apps run on http://localhost:<it> (or 127.0.0.1). */
  sandboxPort: number;
  close(): Promise<void>;
}

/** /install?catalog=…: the page an install link opens in web mode (switchboard://install?… in the desktop app). */
export const INSTALL_PAGE = '/install';

const BASE_HEADERS: OutgoingHttpHeaders = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Web mode: the same core and the same UI, served to a browser on 127.0.0.1 only (SECURITY T2).
 * Every HTTP request and WebSocket upgrade must name this server in Host, come from this
 * server's Origin when it names one, and carry the per-launch token (cookie or ?token=).
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? newToken();
  if (token.length < 32) throw new Error('web host: the token must be at least 32 characters');
  let port = 0;
  let scriptSent = false;
  const sandbox = await startSandboxHost(() => port);

  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  // Each app gets its own sandbox origin; the proxy learns which of our two names its parent UI is on (already checked).
  sockets.on('connection', (socket, req: IncomingMessage) => {
    const uiHost = req.headers.host ?? '';
    const appSandbox = async ({ server, uri }: { server: string; uri: string }) => ({ url: sandbox.proxyUrlFor(uiHost, appOriginLabel(server, uri)) });
    // Its apps' waiting requests end with the tab (SECURITY U7).
    const apps = appRequestsOfConnection(options.handlers);
    socket.on('close', apps.close);
    serveConnection(socket, { ...options.handlers, ...apps.handlers, appSandbox }, options.events);
  });

  const server = createServer((req, res) => {
    handleRequest(req, res).catch((error: unknown) => {
      if (!res.headersSent) reply(res, 500, `internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.destroy();
    });
  });

  async function handleRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = requestUrl(req, port);
    if (!url) return reply(res, 400, 'the request target is not a valid URL path');
    const verdict = guard(req, url, false);
    if (!verdict.ok) return reply(res, verdict.status, verdict.reason);
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(res, 405, `method ${req.method ?? '?'} is not allowed; this server only serves files`, { Allow: 'GET, HEAD' });
    if (url.searchParams.has(TOKEN_QUERY) && (url.pathname === '/' || url.pathname === INSTALL_PAGE)) {
      // Move the token from the address bar (and history) into an HttpOnly cookie.
      url.searchParams.delete(TOKEN_QUERY);
      res.writeHead(302, { ...BASE_HEADERS, 'Set-Cookie': tokenCookie(port, token), Location: `${url.pathname}${url.search}`, 'Cache-Control': 'no-store' });
      res.end();
      return;
    }
    // Web mode's install links: the app itself, which reads the link and opens the install form (nothing more).
    const found = await findStaticFile(options.rendererDir, url.pathname === INSTALL_PAGE ? '/' : url.pathname);
    if (found.kind === 'refused') return reply(res, found.status, found.reason);
    // The UI may frame its apps' sandbox origins and nothing else (SECURITY U1).
    const csp = rendererCsp(sandbox.frameSource);
    res.writeHead(200, { ...BASE_HEADERS, 'Content-Security-Policy': csp, 'Content-Type': found.contentType, 'Content-Length': found.size, 'Cache-Control': 'no-cache' });
    if (req.method === 'HEAD') return void res.end();
    if (!scriptSent && found.contentType.startsWith('text/javascript')) {
      scriptSent = true;
      // 'close', not 'finish': a client that hangs up as the last byte lands can skip 'finish' (seen on a loaded machine).
      res.once('close', () => options.onScriptSent?.());
    }
    openStaticFile(found).on('error', () => res.destroy()).pipe(res);
  }

  function guard(req: IncomingMessage, url: URL, upgrade: boolean): Verdict {
    const host = checkHost(req, port);
    if (!host.ok) return host;
    const origin = checkOrigin(req, port, upgrade);
    if (!origin.ok) return origin;
    return checkToken(presentedToken(req, url, port), token);
  }

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = requestUrl(req, port);
    if (!url) return refuseUpgrade(socket, 400, 'the request target is not a valid URL path');
    const verdict = guard(req, url, true);
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status, verdict.reason);
    if (url.pathname !== WS_PATH) return refuseUpgrade(socket, 404, `no WebSocket endpoint at "${url.pathname}" (it is ${WS_PATH})`);
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });

  let closing: Promise<void> | undefined;
  async function shutDown(): Promise<void> {
    const httpClosed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closeClients(sockets);
    await new Promise<void>((resolve) => sockets.close(() => resolve()));
    await httpClosed;
    await sandbox.close();
  }

  try {
    port = await listen(server, options.port ?? 0);
  } catch (error) {
    await sandbox.close();
    throw error;
  }

  return {
    url: `http://127.0.0.1:${port}/?${TOKEN_QUERY}=${token}`,
    port,
    token,
    sandboxPort: sandbox.port,
    close: () => (closing ??= shutDown()),
  };
}

/** The request target as a URL; undefined when it cannot be parsed (a throw in 'upgrade' would end the process). */
function requestUrl(req: IncomingMessage, port: number): URL | undefined {
  const base = `http://127.0.0.1:${port}`;
  return URL.canParse(req.url ?? '/', base) ? new URL(req.url ?? '/', base) : undefined;
}

/** Say goodbye (1001) to every browser, and cut off any that does not answer within a second. */
async function closeClients(sockets: WebSocketServer): Promise<void> {
  const clients = [...sockets.clients];
  const closed = Promise.all(clients.map((c) => new Promise<void>((resolve) => c.once('close', () => resolve()))));
  for (const client of clients) client.close(1001, 'Switchboard is shutting down');
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, 1000)));
  await Promise.race([closed, grace]);
  clearTimeout(timer);
  for (const client of sockets.clients) client.terminate();
  await closed;
}

function reply(res: ServerResponse, status: number, reason: string, extra: OutgoingHttpHeaders = {}): void {
  const body = `${status}: ${reason}\n`;
  res.writeHead(status, { ...BASE_HEADERS, ...extra, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' };

function refuseUpgrade(socket: Duplex, status: 400 | 401 | 403 | 404, reason: string): void {
  const body = `${status}: ${reason}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function listen(server: ReturnType<typeof createServer>, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE' ? new Error(`web host: port ${port} on 127.0.0.1 is already in use`) : error);
    };
    server.once('error', onError);
    // Loopback only: nothing else on the network can reach the UI (SECURITY T2).
    server.listen(port, '127.0.0.1', () => {
      server.off('error', onError);
      const address = server.address();
      if (address === null || typeof address === 'string') return reject(new Error('web host: the server has no TCP address'));
      resolve(address.port);
    });
  });
}
