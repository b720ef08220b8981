import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RegistryClient } from '../../../src-main/core/install/registry-client';
import { startFakeRegistry, type FakeRegistry } from '../../support/registry-server';

/** The registry client against the registry's wire format on 127.0.0.1, with real server.json documents. */
let registry: FakeRegistry;
beforeAll(async () => {
  registry = await startFakeRegistry();
});
afterAll(() => registry.close());

describe('RegistryClient', () => {
  it('searches and follows the cursor page by page', async () => {
    const client = new RegistryClient(registry.url);
    const first = await client.search('');
    expect(first.servers.map((s) => s.server.name)).toEqual([
      'ai.mcpcap/mcpcap',
      'io.github.brave/brave-search-mcp-server',
      'io.github.exa-labs/exa-mcp-server',
      'io.github.github/github-mcp-server',
      'io.github.GuillaumeLessard/qector-desktop',
    ]);
    const second = await client.search('', first.nextCursor);
    expect(second.servers.map((s) => s.server.name)).toEqual(['io.github.MarcelRoozekrans/memorylens-mcp', 'io.github.microsoft/playwright-mcp', 'io.github.upstash/context7']);
    expect(second.nextCursor).toBeUndefined();
    expect(registry.requests.slice(-2)).toEqual([
      '/v0.1/servers?limit=30&version=latest',
      `/v0.1/servers?limit=30&version=latest&cursor=${encodeURIComponent(first.nextCursor!)}`,
    ]);
  });

  it('sends the search text and reads one server\'s latest version', async () => {
    const client = new RegistryClient(`${registry.url}/`);
    expect((await client.search('brave')).servers.map((s) => s.server.name)).toEqual(['io.github.brave/brave-search-mcp-server']);
    const latest = await client.latest('io.github.upstash/context7');
    expect(latest.server).toMatchObject({ name: 'io.github.upstash/context7', version: '1.0.0' });
    expect(registry.requests.at(-1)).toBe('/v0.1/servers/io.github.upstash%2Fcontext7/versions/latest');
  });

  it('names what went wrong: unknown server, a redirect, an unreachable registry, a bad URL', async () => {
    await expect(new RegistryClient(registry.url).latest('io.example/none')).rejects.toThrow(`the registry at ${registry.url} has nothing at /v0.1/servers/io.example%2Fnone/versions/latest`);
    await expect(new RegistryClient(`${registry.url}/redirect`).search('')).rejects.toThrow(`the registry at ${registry.url}/redirect answered with a redirect (302), which Switchboard does not follow`);
    await expect(new RegistryClient('http://127.0.0.1:9').search('')).rejects.toThrow('the registry at http://127.0.0.1:9 cannot be reached');
    expect(() => new RegistryClient('http://registry.example.com')).toThrow('registry URL "http://registry.example.com" is not allowed: plain http is allowed only to this computer (loopback)');
    await expect(new RegistryClient('https://169.254.169.254').search('')).rejects.toThrow('refusing to fetch https://169.254.169.254/v0.1/servers?limit=30&version=latest: 169.254.169.254 is a link-local address (cloud metadata lives there)');
  });
});
