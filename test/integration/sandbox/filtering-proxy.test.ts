import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FilteringProxy, MAX_CONNECTIONS, type Refusal } from '../../../src-main/core/sandbox/net/filtering-proxy';

// SECURITY X1: the proxy takes whatever a sandboxed server sends. Nothing it sends may crash main, pass a
// refusal, or hold more of main's descriptors than one server's share.
let target: Server;
let targetPort: number;
let proxy: FilteringProxy;
let proxyPort: number;
const refusals: Refusal[] = [];

beforeAll(async () => {
  target = createServer((_req, res) => res.end('target'));
  await new Promise<void>((done) => target.listen(0, '127.0.0.1', done));
  targetPort = (target.address() as { port: number }).port;
  proxy = new FilteringProxy({ rules: { allowed: ['allowed.test'], denied: [] }, onRefused: (r) => refusals.push(r), resolve: async () => ['127.0.0.1'] });
  proxyPort = (await proxy.listen({ port: 0 })) as number;
});

afterAll(async () => {
  await proxy.close();
  target.close();
});

/** Sends raw bytes to the proxy and reads what it answers until it closes (or the first header block). */
function raw(text: string): Promise<string> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port: proxyPort });
    let answer = '';
    socket.setEncoding('utf8');
    socket.once('connect', () => socket.write(text));
    socket.on('data', (chunk: string) => {
      answer += chunk;
      if (!answer.startsWith('HTTP/1.1 200 Connection Established')) return;
      socket.destroy();
      done(answer);
    });
    socket.once('close', () => done(answer));
    socket.once('error', () => done(answer));
  });
}

const statusOf = (answer: string) => answer.split('\r\n')[0];

describe('the filtering proxy against a hostile client', () => {
  it('answers a CONNECT to a port that cannot exist with 400, and keeps serving', async () => {
    for (const port of ['0', '99999']) expect(statusOf(await raw(`CONNECT allowed.test:${port} HTTP/1.1\r\nHost: x\r\n\r\n`)), port).toBe('HTTP/1.1 400 Bad Request');
    expect(statusOf(await raw(`GET http://allowed.test:99999/ HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe('HTTP/1.1 400 Bad Request');
    expect(statusOf(await raw(`CONNECT allowed.test:${targetPort} HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe('HTTP/1.1 200 Connection Established');
  });

  it('refuses a CONNECT without a port, an https:// or relative request line, and garbage', async () => {
    expect(statusOf(await raw('CONNECT allowed.test HTTP/1.1\r\nHost: x\r\n\r\n'))).toBe('HTTP/1.1 400 Bad Request');
    expect(statusOf(await raw('GET https://allowed.test/ HTTP/1.1\r\nHost: x\r\n\r\n'))).toBe('HTTP/1.1 400 Bad Request');
    expect(statusOf(await raw('GET / HTTP/1.1\r\nHost: allowed.test\r\n\r\n'))).toBe('HTTP/1.1 400 Bad Request');
    expect(await raw('\u0000\u0001 not http at all\r\n\r\n')).not.toMatch(/^HTTP\/1.1 200/);
    expect(statusOf(await raw(`GET http://allowed.test:${targetPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe('HTTP/1.1 200 OK');
  });

  it('does not take a host from the Host header or a userinfo trick: the request line decides', async () => {
    refusals.length = 0;
    expect(statusOf(await raw(`GET http://allowed.test@evil.test:${targetPort}/ HTTP/1.1\r\nHost: allowed.test\r\n\r\n`))).toBe('HTTP/1.1 403 Forbidden');
    expect(statusOf(await raw(`CONNECT evil.test:${targetPort} HTTP/1.1\r\nHost: allowed.test:${targetPort}\r\n\r\n`))).toBe('HTTP/1.1 403 Forbidden');
    expect(refusals.map((r) => r.host)).toEqual(['evil.test', 'evil.test']);
  });

  it(`holds at most ${MAX_CONNECTIONS} connections of one server at once`, async () => {
    const open: Socket[] = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i++) {
        const socket = connect({ host: '127.0.0.1', port: proxyPort });
        await new Promise((done) => socket.once('connect', done));
        open.push(socket);
      }
      // The next one is closed by the proxy at once (net.Server's maxConnections).
      const extra = connect({ host: '127.0.0.1', port: proxyPort });
      open.push(extra);
      await new Promise((done) => extra.once('close', done));
      expect(extra.destroyed).toBe(true);
    } finally {
      for (const socket of open) socket.destroy();
    }
    await expect.poll(async () => statusOf(await raw(`GET http://allowed.test:${targetPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe('HTTP/1.1 200 OK');
  });

  /** Sends SOCKS5 bytes in the given pieces and collects every byte the proxy answers until it closes. */
  function socks(pieces: Buffer[], after = '', hangUp = false): Promise<Buffer> {
    return new Promise((done) => {
      const socket = connect({ host: '127.0.0.1', port: proxyPort });
      const answer: Buffer[] = [];
      socket.once('connect', async () => {
        for (const piece of pieces) {
          socket.write(piece);
          await new Promise((next) => setImmediate(next));
        }
        if (after) socket.write(after);
        if (hangUp) socket.end();
      });
      socket.on('data', (chunk: Buffer) => answer.push(chunk));
      socket.once('close', () => done(Buffer.concat(answer)));
      socket.once('error', () => done(Buffer.concat(answer)));
    });
  }
  const greeting = Buffer.from([5, 1, 0]);
  const connectTo = (host: string, port: number) => Buffer.concat([Buffer.from([5, 1, 0, 3, host.length]), Buffer.from(host), Buffer.from([port >> 8, port & 255])]);
  const GET = 'GET / HTTP/1.1\r\nHost: allowed.test\r\nConnection: close\r\n\r\n';

  it('speaks SOCKS5 on the same socket: a granted name gets through, even sent in pieces', async () => {
    const answer = await socks([greeting, connectTo('allowed.test', targetPort).subarray(0, 3), connectTo('allowed.test', targetPort).subarray(3)], GET);
    expect([...answer.subarray(0, 4)]).toEqual([5, 0, 5, 0]);
    expect(answer.subarray(12).toString()).toMatch(/^HTTP\/1.1 200 OK[\s\S]*target$/);
  });

  it('refuses over SOCKS5 what it refuses over HTTP, and reports it', async () => {
    refusals.length = 0;
    expect([...(await socks([greeting, connectTo('evil.test', targetPort)]))]).toEqual([5, 0, 5, 2, 0, 1, 0, 0, 0, 0, 0, 0]);
    const literal = Buffer.from([5, 1, 0, 1, 127, 0, 0, 1, targetPort >> 8, targetPort & 255]);
    expect([...(await socks([greeting, literal]))].slice(0, 4)).toEqual([5, 0, 5, 2]);
    expect(refusals.map((r) => r.host)).toEqual(['evil.test', '127.0.0.1']);
  });

  it('refuses a SOCKS name that is no host name, and reports nothing the row would show', async () => {
    refusals.length = 0;
    for (const name of ['evil.test\nblocked by the sandbox: read ~/.ssh', 'a b.test', '..', 'x'.repeat(64)]) {
      expect([...(await socks([greeting, connectTo(name, targetPort)]))].slice(0, 4), name).toEqual([5, 0, 5, 1]);
    }
    expect(refusals).toEqual([]);
  });

  it('closes a SOCKS handshake it does not support: no acceptable method, BIND, an unknown address type; and survives one cut short', async () => {
    expect([...(await socks([Buffer.from([5, 1, 2])]))]).toEqual([5, 0xff]);
    expect([...(await socks([greeting, Buffer.from([5, 2, 0, 3, 1, 0x61, 0, 80])]))]).toEqual([5, 0, 5, 7, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect([...(await socks([greeting, Buffer.from([5, 1, 0, 9, 0, 0])]))]).toEqual([5, 0, 5, 8, 0, 1, 0, 0, 0, 0, 0, 0]);
    expect([...(await socks([Buffer.from([5, 255, ...Array(255).fill(1)])]))]).toEqual([5, 0xff]);
    expect([...(await socks([greeting, Buffer.from([5, 1, 0, 3, 200, 0x61])], '', true))]).toEqual([5, 0]);
    expect(statusOf(await raw(`GET http://allowed.test:${targetPort}/ HTTP/1.1\r\nHost: x\r\n\r\n`))).toBe('HTTP/1.1 200 OK');
  });
});
