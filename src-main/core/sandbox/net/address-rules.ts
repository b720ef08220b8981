import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';

/**
 * Addresses a sandboxed server reaches only when the person granted them literally (SECURITY X1): this
 * machine (loopback, unspecified, its own interfaces: a service bound to 0.0.0.0 answers there as on
 * loopback), the local network (private, carrier-grade NAT, unique-local), link-local (169.254.169.254 is
 * the cloud metadata service), multicast and broadcast. IPv4 rules also cover the IPv6 forms that carry an
 * IPv4 address (`::ffff:127.0.0.1`), so a mapped address is no way around them.
 */
const SPECIAL: [string, string[]][] = [
  ['a loopback address', ['127.0.0.0/8', '::1/128']],
  ['an unspecified address', ['0.0.0.0/8', '::/128']],
  ['a private address', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7']],
  ['a link-local address', ['169.254.0.0/16', 'fe80::/10']],
  ['a multicast address', ['224.0.0.0/4', 'ff00::/8']],
  ['the broadcast address', ['255.255.255.255/32']],
];

function blockListOf(ranges: string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address, prefix] = range.split('/') as [string, string];
    list.addSubnet(address, Number(prefix), isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }
  return list;
}

const CLASSES = SPECIAL.map(([why, ranges]) => ({ why, list: blockListOf(ranges) }));

/** The IPv4 address an IPv6 form carries (mapped `::ffff:a.b.c.d`, in dotted or hex form), if any. */
function embeddedIPv4(address: string): string | undefined {
  const mapped = /^::ffff:(?:0:)?(.+)$/i.exec(address)?.[1];
  if (!mapped) return undefined;
  if (isIP(mapped) === 4) return mapped;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(mapped);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** This machine's own unicast addresses, read at each check (interfaces come and go). */
function ownAddresses(): Set<string> {
  const own = new Set<string>();
  for (const entries of Object.values(networkInterfaces())) for (const entry of entries ?? []) own.add(entry.address.toLowerCase());
  return own;
}

/** Why an address is one a name may not lead to ("a loopback address"), or undefined for a public one. */
export function specialAddress(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '').toLowerCase();
  const family = isIP(plain);
  if (!family) return 'an unparsable address';
  const v4 = family === 6 ? embeddedIPv4(plain) : plain;
  for (const { why, list } of CLASSES) {
    if (v4 && list.check(v4, 'ipv4')) return why;
    if (family === 6 && list.check(plain, 'ipv6')) return why;
  }
  if (ownAddresses().has(plain) || (v4 && ownAddresses().has(v4))) return "one of this machine's addresses";
  return undefined;
}
