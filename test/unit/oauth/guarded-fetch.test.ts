import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedAddressReason, guardedFetch } from '../../../src-main/core/oauth/guarded-fetch';

describe('blockedAddressReason', () => {
  it.each([
    ['169.254.169.254', '169.254.169.254 is a link-local address (cloud metadata lives there)'],
    ['169.254.0.1', '169.254.0.1 is a link-local address (cloud metadata lives there)'],
    ['100.100.100.200', '100.100.100.200 is a cloud-metadata address'],
    ['fe80::1', 'fe80::1 is a link-local address'],
    ['fd00:ec2::254', 'fd00:ec2::254 is a cloud-metadata address'],
    ['::ffff:169.254.169.254', '169.254.169.254 is a link-local address (cloud metadata lives there)'],
  ])('blocks %s', (address, reason) => {
    expect(blockedAddressReason(address)).toBe(reason);
  });

  it.each(['127.0.0.1', '10.0.0.1', '93.184.216.34', '::1', '2606:4700::1111'])('allows %s', (address) => {
    expect(blockedAddressReason(address)).toBeUndefined();
  });
});

describe('guardedFetch', () => {
  let server: Server;
  let base: string;
  let hits: string[];
  beforeAll(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/moved') return void res.writeHead(302, { location: '/target' }).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('does not follow a redirect, and hides its target so nothing downstream can', async () => {
    const response = await guardedFetch()(`${base}/moved`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBeNull();
    expect(hits).not.toContain('/target');
  });

  it('passes an ordinary answer through', async () => {
    expect(await (await guardedFetch()(`${base}/x`)).json()).toEqual({ ok: true });
  });

  it('refuses a host name that resolves to a link-local address, before connecting', async () => {
    const resolve = async () => ['169.254.169.254'];
    await expect(guardedFetch(fetch, resolve)('http://innocent.example/.well-known/oauth-authorization-server')).rejects.toThrow(
      'refusing to fetch http://innocent.example/.well-known/oauth-authorization-server: 169.254.169.254 is a link-local address (cloud metadata lives there)',
    );
  });

  it('refuses a link-local address written in the URL, which is connected to without a lookup', async () => {
    const resolve = async (): Promise<string[]> => {
      throw new Error('should not resolve');
    };
    await expect(guardedFetch(fetch, resolve)('http://[fe80::1]:8080/token')).rejects.toThrow('refusing to fetch http://[fe80::1]:8080/token: fe80::1 is a link-local address');
    await expect(guardedFetch(fetch, resolve)('http://169.254.169.254/latest/meta-data/')).rejects.toThrow(
      'refusing to fetch http://169.254.169.254/latest/meta-data/: 169.254.169.254 is a link-local address (cloud metadata lives there)',
    );
  });

  it('refuses well-known cloud metadata host names without resolving them', async () => {
    const resolve = async (): Promise<string[]> => {
      throw new Error('should not resolve');
    };
    await expect(guardedFetch(fetch, resolve)('http://metadata.google.internal/computeMetadata/v1/')).rejects.toThrow(
      'refusing to fetch http://metadata.google.internal/computeMetadata/v1/: metadata.google.internal is a cloud-metadata host',
    );
  });

  it('connects to the address it checked, not to a second answer from a rebinding DNS', async () => {
    // Two servers on one port: 127.0.0.1 is what the check sees, 127.0.0.2 what a second lookup would give.
    const answer = (name: string) => createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(name));
    const checked = answer('checked');
    await new Promise<void>((resolve) => checked.listen(0, '127.0.0.1', resolve));
    const port = (checked.address() as AddressInfo).port;
    const rebound = answer('rebound');
    await new Promise<void>((resolve) => rebound.listen(port, '127.0.0.2', resolve));
    const lookups: string[] = [];
    const rebinding = async (hostname: string) => {
      lookups.push(hostname);
      return lookups.length === 1 ? ['127.0.0.1'] : ['127.0.0.2'];
    };
    try {
      const response = await guardedFetch(fetch, rebinding)(`http://rebind.test:${port}/.well-known/oauth-authorization-server`);
      expect(await response.text()).toBe('checked');
      expect(lookups).toEqual(['rebind.test']);
    } finally {
      await Promise.all([checked, rebound].map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});
