import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The fetch every OAuth metadata, registration and token request takes (SECURITY O9):
 * redirects are never followed (the SDK's same-origin follow is defeated too, by dropping
 * Location), and hosts that are or resolve to link-local or cloud-metadata addresses are refused.
 */
export class BlockedAddressError extends Error {
  constructor(url: string, reason: string) {
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

export function guardedFetch(base: FetchLike = fetch, resolve: HostResolver = systemResolver): FetchLike {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : String(input));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (METADATA_HOSTNAMES.has(host.toLowerCase())) throw new BlockedAddressError(url.href, `${host} is a cloud-metadata host`);
    const addresses = isIP(host) ? [host] : await resolve(host);
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      if (reason) throw new BlockedAddressError(url.href, reason);
    }
    const response = await base(url, { ...init, redirect: 'manual' });
    if (response.status < 300 || response.status > 399) return response;
    // A redirect is answered as is, without its target: nothing downstream can follow it.
    await response.body?.cancel();
    return new Response(null, { status: response.status, statusText: response.statusText });
  };
}
