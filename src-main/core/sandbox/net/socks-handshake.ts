import type { Socket } from 'node:net';

/** Where a SOCKS5 client asks to connect (RFC 1928): a name (ATYP 3) or an IPv4/IPv6 literal. */
export interface SocksTarget {
  host: string;
  port: number;
}

/** SOCKS5 reply codes the proxy uses (RFC 1928 §6). */
export const SOCKS_REPLY = { succeeded: 0, failure: 1, notAllowed: 2, hostUnreachable: 4, commandNotSupported: 7, addressNotSupported: 8 } as const;

/** The most a greeting plus a CONNECT request can take: 2 + 255 methods, 4 + 1 + 255 name bytes + 2. */
const MAX_HANDSHAKE_BYTES = 2 + 255 + 4 + 1 + 255 + 2;

type Parsed<T> = { done: true; value: T; rest: Buffer } | { done: false } | { error: number };

function parseGreeting(data: Buffer): Parsed<boolean> {
  if (data.length < 2) return { done: false };
  if (data[0] !== 5) return { error: SOCKS_REPLY.failure };
  const end = 2 + data[1]!;
  if (data.length < end) return { done: false };
  return { done: true, value: data.subarray(2, end).includes(0), rest: data.subarray(end) };
}

function parseRequest(data: Buffer): Parsed<SocksTarget> {
  if (data.length < 5) return { done: false };
  if (data[0] !== 5) return { error: SOCKS_REPLY.failure };
  if (data[1] !== 1) return { error: SOCKS_REPLY.commandNotSupported };
  const type = data[3];
  const length = type === 1 ? 4 : type === 4 ? 16 : type === 3 ? 1 + data[4]! : -1;
  if (length < 0) return { error: SOCKS_REPLY.addressNotSupported };
  if (data.length < 4 + length + 2) return { done: false };
  const address = data.subarray(4, 4 + length);
  const host =
    type === 1 ? [...address].join('.')
    : type === 4 ? Array.from({ length: 8 }, (_, i) => address.readUInt16BE(i * 2).toString(16)).join(':')
    : address.subarray(1).toString('latin1');
  return { done: true, value: { host, port: data.readUInt16BE(4 + length) }, rest: data.subarray(4 + length + 2) };
}

/** Answers a CONNECT request: the code, and a zero bound address (clients do not use it). */
export function socksReply(socket: Socket, code: number): void {
  socket.write(Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]));
}

/**
 * Reads a SOCKS5 greeting (no authentication is the only method offered) and a CONNECT request from a
 * socket whose first byte was 5. Resolves with the target and any bytes sent after it, or undefined once
 * it has answered a malformed or unsupported handshake with the right code and closed the socket.
 */
export function readSocksRequest(socket: Socket): Promise<{ target: SocksTarget; rest: Buffer } | undefined> {
  return new Promise((done) => {
    let data: Buffer = Buffer.alloc(0);
    let greeted = false;
    const finish = (result: { target: SocksTarget; rest: Buffer } | undefined) => {
      // Paused, so what the client sends while the proxy dials waits for the pipe instead of being dropped.
      socket.pause();
      socket.off('data', onData);
      socket.off('close', onClose);
      done(result);
    };
    const fail = (code: number) => {
      if (greeted) socksReply(socket, code);
      else socket.write(Buffer.from([5, 0xff]));
      socket.end();
      finish(undefined);
    };
    const onClose = () => finish(undefined);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (data.length > MAX_HANDSHAKE_BYTES) return fail(SOCKS_REPLY.failure);
      if (!greeted) {
        const greeting = parseGreeting(data);
        if ('error' in greeting) return fail(greeting.error);
        if (!greeting.done) return;
        if (!greeting.value) return fail(SOCKS_REPLY.failure);
        greeted = true;
        data = greeting.rest;
        socket.write(Buffer.from([5, 0]));
      }
      const request = parseRequest(data);
      if ('error' in request) return fail(request.error);
      if (request.done) finish({ target: request.value, rest: request.rest });
    };
    socket.on('data', onData);
    socket.once('close', onClose);
    socket.resume();
  });
}
