import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { specialAddress } from '../../../src-main/core/sandbox/net/address-rules';

describe('specialAddress (where a name may not lead unless granted by that very name)', () => {
  it('names loopback, unspecified, private, link-local (the metadata service), multicast and broadcast', () => {
    expect(specialAddress('127.0.0.1')).toBe('a loopback address');
    expect(specialAddress('127.1.2.3')).toBe('a loopback address');
    expect(specialAddress('::1')).toBe('a loopback address');
    expect(specialAddress('[::1]')).toBe('a loopback address');
    expect(specialAddress('0.0.0.0')).toBe('an unspecified address');
    expect(specialAddress('::')).toBe('an unspecified address');
    for (const address of ['10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', 'fd12::1']) expect(specialAddress(address), address).toBe('a private address');
    expect(specialAddress('169.254.169.254')).toBe('a link-local address');
    expect(specialAddress('fe80::1%eth0')).toBe('a link-local address');
    expect(specialAddress('224.0.0.251')).toBe('a multicast address');
    expect(specialAddress('255.255.255.255')).toBe('the broadcast address');
  });

  it('sees through IPv4 addresses written as IPv6 (::ffff:127.0.0.1, ::ffff:7f00:1)', () => {
    expect(specialAddress('::ffff:127.0.0.1')).toBe('a loopback address');
    expect(specialAddress('::ffff:7f00:1')).toBe('a loopback address');
    expect(specialAddress('::ffff:a9fe:a9fe')).toBe('a link-local address');
  });

  it('names this machine\'s own interface addresses, which answer like loopback', () => {
    const own = Object.values(networkInterfaces()).flat().map((entry) => entry!.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(specialAddress(address), address).toBeDefined();
  });

  it('lets a public address through, and calls anything else unparsable', () => {
    expect(specialAddress('93.184.215.14')).toBeUndefined();
    expect(specialAddress('2606:4700::1111')).toBeUndefined();
    expect(specialAddress('example.com')).toBe('an unparsable address');
  });
});
