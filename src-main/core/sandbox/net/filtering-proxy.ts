import { lookup as dnsLookup } from 'node:dns/promises';
import { createServer, request, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import { connect, createServer as createListener, isIP, type Server as Listener, type Socket } from 'node:net';
import { specialAddress } from './address-rules';
import { judgeHost, normalizeHost, type DomainRules } from './domain-rules';
import { readSocksRequest, SOCKS_REPLY, socksReply } from './socks-handshake';

/** A connection the proxy refused: the host as asked for, and why. `grantable`: Allow would fix it. */
export interface Refusal {
  host: string;
  port: number;
  why: string;
  grantable: boolean;
}

/** Name → addresses. dns.lookup (the system resolver, /etc/hosts included) unless a test gives its own. */
export type Resolve = (host: string) => Promise<string[]>;

export interface FilteringProxyOptions {
  rules: DomainRules;
  onRefused: (refusal: Refusal) => void;
  resolve?: Resolve;
}

/** Connections one server may hold open through its proxy at once (each costs main two descriptors). */
export const MAX_CONNECTIONS = 128;

const systemResolve: Resolve = async (host) => (await dnsLookup(host, { all: true })).map((entry) => entry.address);

/** Headers that describe the hop to the proxy, not the request: never forwarded (RFC 9110 §7.6.1). */
const HOP_HEADERS = new Set(['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Letters, digits, `-` and `_` in dot-separated labels: what DNS names (and the grants' patterns) are made of. */
const HOST_NAME = /^[a-z0-9_-]{1,63}(\.[a-z0-9_-]{1,63})*$/;

type Dialled = { ok: true; socket: Socket } | { ok: false; status: number; text: string };

/**
 * The one way out of a sandboxed server's network namespace (SECURITY X1): an HTTP proxy (CONNECT for
 * https and anything else over TCP, absolute-form requests for plain http) and, on the same socket, a
 * SOCKS5 proxy (told apart by the first byte, 5), that lets a connection through
 * only to a host its entry grants. It resolves the name itself and dials the address it checked, so a name
 * that resolves to this machine or the local network (DNS rebinding, 169.254.169.254) is refused unless the
 * person granted that exact name. One proxy per server: its refusals are that server's, and it closes with it.
 */
export class FilteringProxy {
  private readonly listener: Listener;
  /** Never listens itself: the listener hands it the connections that speak HTTP. */
  private readonly http: Server;
  private readonly sockets = new Set<Socket>();
  private readonly resolve: Resolve;

  constructor(private readonly options: FilteringProxyOptions) {
    this.resolve = options.resolve ?? systemResolve;
    // Whatever a server sends, it must never become an unhandled rejection in main: each handler ends in a catch.
    this.http = createServer((req, res) => void this.forward(req, res).catch(() => res.destroy()));
    this.http.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => void this.tunnel(req, socket, head).catch(() => socket.destroy()));
    this.http.on('clientError', (_error, socket: Socket) => socket.destroy());
    this.listener = createListener((socket) => this.accept(socket));
    this.listener.maxConnections = MAX_CONNECTIONS;
  }

  /** Listens on a UNIX socket (Linux: bound into the sandbox) or a loopback port (macOS). */
  listen(target: { path: string } | { port: 0 }): Promise<string | number> {
    return new Promise((done, fail) => {
      this.listener.once('error', fail);
      const listening = () => {
        const address = this.listener.address();
        done(typeof address === 'string' ? address : address!.port);
      };
      if ('path' in target) this.listener.listen(target.path, listening);
      else this.listener.listen(0, '127.0.0.1', listening);
    });
  }

  /** Stops listening and cuts every connection it carries, both sides: nothing of it stays open. */
  async close(): Promise<void> {
    const closed = new Promise<void>((done) => this.listener.close(() => done()));
    for (const socket of this.sockets) socket.destroy();
    if (this.listener.listening) await closed;
  }

  /** SOCKS5 starts with byte 5; an HTTP request line never does. */
  private accept(socket: Socket): void {
    this.track(socket);
    socket.on('error', () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === 5) void this.socks(socket).catch(() => socket.destroy());
      else {
        this.http.emit('connection', socket);
        socket.resume();
      }
    });
  }

  private async socks(client: Socket): Promise<void> {
    const request = await readSocksRequest(client);
    if (!request) return;
    const dialled = await this.dial(request.target.host, request.target.port);
    if (!dialled.ok) {
      socksReply(client, dialled.status === 403 ? SOCKS_REPLY.notAllowed : dialled.status === 400 ? SOCKS_REPLY.failure : SOCKS_REPLY.hostUnreachable);
      client.end();
      return;
    }
    socksReply(client, SOCKS_REPLY.succeeded);
    this.splice(client, dialled.socket, request.rest);
  }

  private track(socket: Socket): Socket {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    return socket;
  }

  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => client.destroy());
    client.pause(); // until the pipe: nothing sent early is lost
    const target = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(req.url ?? '');
    const dialled = target ? await this.dial(target[1]!, Number(target[2])) : { ok: false as const, status: 400, text: 'CONNECT needs host:port' };
    if (!dialled.ok) {
      client.end(`HTTP/1.1 ${dialled.status} ${STATUS_CODES[dialled.status]}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${dialled.text}\n`);
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    this.splice(client, dialled.socket, head);
  }

  /** Carries bytes both ways until either side ends; then both are gone. */
  private splice(client: Socket, upstream: Socket, first: Buffer): void {
    if (first.length) upstream.write(first);
    upstream.pipe(client);
    client.pipe(upstream);
    const cut = () => (client.destroy(), upstream.destroy());
    upstream.once('close', cut);
    client.once('close', cut);
  }

  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refuse = (status: number, text: string) => res.writeHead(status, { 'content-type': 'text/plain', connection: 'close' }).end(`${text}\n`);
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      return void refuse(400, 'a proxy request needs an absolute http:// URL');
    }
    if (url.protocol !== 'http:') return void refuse(400, `${url.protocol} is not forwarded; use CONNECT`);
    const dialled = await this.dial(url.hostname, Number(url.port || 80));
    if (!dialled.ok) return void refuse(dialled.status, dialled.text);
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_HEADERS.has(name) && value !== undefined) headers[name] = value;
    headers.host = url.host;
    headers.connection = 'close';
    const socket = dialled.socket;
    const upstream = request({ method: req.method, path: `${url.pathname}${url.search}`, headers, createConnection: () => socket });
    upstream.on('response', (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : refuse(502, `the connection to ${url.host} failed`)));
    res.once('close', () => socket.destroy());
    req.pipe(upstream);
  }

  /** Decide, resolve, check every address, connect to one that passed: no second resolution in between. */
  private async dial(rawHost: string, port: number): Promise<Dialled> {
    const host = normalizeHost(rawHost);
    if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, status: 400, text: `no such port: ${port}` };
    // A SOCKS name is any bytes: only a host name or an IP goes further (and into the row's words).
    if (!isIP(host) && !HOST_NAME.test(host)) return { ok: false, status: 400, text: 'not a host name' };
    const refused = (why: string, grantable: boolean): Dialled => {
      this.options.onRefused({ host, port, why, grantable });
      return { ok: false, status: 403, text: `blocked by the sandbox: connect to ${host} (${why})` };
    };
    const verdict = judgeHost(this.options.rules, host, port);
    if (!verdict.ok) return refused(verdict.why, verdict.grantable);
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await this.resolve(host);
    } catch {
      return { ok: false, status: 502, text: `cannot resolve ${host}` };
    }
    if (!verdict.literal) {
      const special = addresses.map(specialAddress).find((why) => why !== undefined);
      if (special) return refused(`it resolves to ${special}, which only a grant of this exact name opens`, true);
    }
    for (const address of addresses) {
      const socket = await connected(address, port);
      if (socket) return { ok: true, socket: this.track(socket) };
    }
    return { ok: false, status: 502, text: `cannot connect to ${host}:${port}` };
  }
}

/** How long a dial may take before the next address is tried (a black-holed address would hold ~2 minutes). */
const CONNECT_TIMEOUT_MS = 30_000;

function connected(address: string, port: number): Promise<Socket | undefined> {
  return new Promise((done) => {
    const socket = connect({ host: address, port, timeout: CONNECT_TIMEOUT_MS });
    socket.once('timeout', () => (socket.destroy(), done(undefined)));
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeAllListeners('timeout');
      socket.removeAllListeners('error');
      socket.on('error', () => socket.destroy());
      done(socket);
    });
    socket.once('error', () => (socket.destroy(), done(undefined)));
  });
}
