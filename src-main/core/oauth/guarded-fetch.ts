import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Agent } from 'undici';

/**
 * The fetch every OAuth metadata, registration and token request takes (SECURITY O9):
 * redirects are never followed (the SDK's same-origin follow is defeated too, by dropping
 * Location), and hosts that are or resolve to link-local or cloud-metadata addresses are refused.
 * A host name is resolved once, in the connection's own lookup, and the socket goes to the
 * addresses that were checked: a DNS that answers differently the second time (rebinding) gets
 * no second question.
 */
export class BlockedAddressError extends Error {
  constructor(
    url: string,
    readonly reason: string,
  ) {
    super(`refusing to fetch ${url}: ${reason}`);
    this.name = 'BlockedAddressError';
  }
}

const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Why an address may not be fetched, or undefined when it may. */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number];
    if (a === 169 && b === 254) return `${address} is a link-local address (cloud metadata lives there)`;
    if (address === '100.100.100.200') return `${address} is a cloud-metadata address`;
    return undefined;
  }
  if (family === 6) {
    const lower = address.toLowerCase();
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    if (mapped) return blockedAddressReason(mapped[1]!);
    if (/^fe[89ab][0-9a-f]:/.test(lower)) return `${address} is a link-local address`;
    if (lower === 'fd00:ec2::254') return `${address} is a cloud-metadata address`;
  }
  return undefined;
}

export type HostResolver = (hostname: string) => Promise<string[]>;
const systemResolver: HostResolver = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** The connection's lookup: one resolution, every address checked, and only those handed to the socket. */
function checkedLookup(resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const reason = addresses.map(blockedAddressReason).find(Boolean);
        if (reason) return callback(new BlockedAddressError(hostname, reason), '', 0);
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        const entries = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) return (callback as (error: null, entries: { address: string; family: number }[]) => void)(null, entries);
        callback(null, entries[0]!.address, entries[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

/** `base` must honour undici's `dispatcher` option (Node's fetch and undici's do): the checks live in its lookup. */
export function guardedFetch(base: FetchLike = fetch, resolve: HostResolver = systemResolver): FetchLike {
  // undici loads on the first request, not at start (main-process memory: ~12 MB for a second copy of Node's fetch).
  let dispatcher: Promise<Agent> | undefined;
  return async (input, init) => {
    dispatcher ??= import('undici').then(({ Agent }) => new Agent({ connect: { lookup: checkedLookup(resolve) } }));
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : String(input));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (METADATA_HOSTNAMES.has(host.toLowerCase())) throw new BlockedAddressError(url.href, `${host} is a cloud-metadata host`);
    // An address in the URL is connected to as is, without a lookup: check it here.
    const literal = isIP(host) ? blockedAddressReason(host) : undefined;
    if (literal) throw new BlockedAddressError(url.href, literal);
    let response: Response;
    try {
      response = await base(url, { ...init, redirect: 'manual', dispatcher: await dispatcher } as RequestInit);
    } catch (error) {
      const blocked = blockedCause(error);
      throw blocked ? new BlockedAddressError(url.href, blocked.reason) : error;
    }
    if (response.status < 300 || response.status > 399) return response;
    // A redirect is answered as is, without its target: nothing downstream can follow it.
    await response.body?.cancel();
    return new Response(null, { status: response.status, statusText: response.statusText });
  };
}

/** fetch wraps what the lookup refused in "fetch failed": find it in the causes. */
function blockedCause(error: unknown): BlockedAddressError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    if (e instanceof BlockedAddressError) return e;
  }
  return undefined;
}
