import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/core/dispatch';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { packFixture } from '../../support/bundles';
import { fixtureDocuments, startFakeRegistry, type FakeRegistry } from '../../support/registry-server';

/** Catalog and registry installs through the contract: a loopback registry with real server.json documents, the real keychain. */

const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
if (!keychain) console.warn('server install core test skipped: no test keychain (run under bash test/with-keychain.sh)');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let home: string;
let core: SwitchboardCore | undefined;
let vault: KeytarVault;
let registry: FakeRegistry;
let hello: Buffer;

beforeAll(async () => {
  hello = await readFile(await packFixture());
  const bundleDoc = {
    name: 'io.example/hello-bundle',
    description: 'the hello test bundle, served for download',
    packages: [
      { registryType: 'mcpb', identifier: 'https://127.0.0.1/x', fileSha256: createHash('sha256').update(hello).digest('hex'), transport: { type: 'stdio' } },
      { registryType: 'mcpb', identifier: 'https://127.0.0.1/y', fileSha256: '0'.repeat(64), transport: { type: 'stdio' } },
    ],
  };
  registry = await startFakeRegistry([...fixtureDocuments(), bundleDoc]);
  // The document names https URLs (as the registry requires); the test fetch serves them from the loopback registry.
  registry.files.set('/x', hello);
  registry.files.set('/y', hello);
}, 60_000);
afterAll(() => registry.close());
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-server-install-'));
});
afterEach(async () => {
  await core?.stop();
  core = undefined;
  await rm(home, { recursive: true, force: true });
});

async function startCore(): Promise<void> {
  vault = new KeytarVault(`switchboard-test-${randomUUID()}`);
  // Bundle URLs point at https://127.0.0.1; this fetch sends them to the loopback registry over http.
  const loopbackFetch: typeof fetch = (input, init) => fetch(String(input).replace('https://127.0.0.1', registry.url), init);
  core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quiet, installFetch: loopbackFetch, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 } });
  await core.start();
  await call('setRegistryUrl', { url: registry.url });
}
const call = async <T = unknown>(method: string, payload: unknown): Promise<T> => {
  const result = await dispatch(core!.handlers, method, payload);
  if (!result.ok) throw new Error(result.error.message);
  return result.value as T;
};
const servers = async () => JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')).servers;

describe.skipIf(!keychain)('installing from the registry and the catalog', () => {
  it('searches the configured registry and installs a server with its secret in the keychain only', async () => {
    await startCore();
    const found = await call<{ servers: { name: string; suggestedName: string; options: { id: string; usable: boolean }[] }[]; registryUrl: string }>('searchRegistry', { query: 'brave' });
    expect(found.registryUrl).toBe(registry.url);
    expect(found.servers.map((s) => [s.name, s.suggestedName])).toEqual([['io.github.brave/brave-search-mcp-server', 'brave-search-mcp-server']]);
    expect(await call('installServer', { source: { registry: 'io.github.brave/brave-search-mcp-server' }, option: 'package:0', name: 'brave', values: { 'env.BRAVE_API_KEY': 'bsk-secret-1' } })).toEqual({ name: 'brave' });
    expect((await servers()).brave).toEqual({
      command: 'npx',
      args: ['-y', '@brave/brave-search-mcp-server@2.1.3'],
      env: { BRAVE_API_KEY: '${secret:install.brave.env.BRAVE_API_KEY}' },
      // SECURITY X1: an installed local server runs sandboxed, reaching the registry its runner fetches from.
      sandboxEnabled: true,
      sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } },
    });
    expect(await vault.get('install.brave.env.BRAVE_API_KEY')).toBe('bsk-secret-1');
    expect(await readFile(join(home, 'servers.json'), 'utf8')).not.toContain('bsk-secret-1');
    // The registry was asked again at install time, not trusted from the UI.
    expect(registry.requests.at(-1)).toBe('/v0.1/servers/io.github.brave%2Fbrave-search-mcp-server/versions/latest');
  });

  it('never overwrites a server of the same name, and leaves no secret behind when refused', async () => {
    await startCore();
    await call('installServer', { source: { catalog: 'everything' }, option: 'package:0', name: 'brave', values: {} });
    const before = await readFile(join(home, 'servers.json'), 'utf8');
    expect(await dispatch(core!.handlers, 'installServer', { source: { registry: 'io.github.brave/brave-search-mcp-server' }, option: 'package:0', name: 'brave', values: { 'env.BRAVE_API_KEY': 'k' } })).toEqual({
      ok: false,
      error: { code: 'conflict', message: 'a server named "brave" already exists; install it as "brave-2"' },
    });
    expect(await dispatch(core!.handlers, 'installServer', { source: { registry: 'io.github.MarcelRoozekrans/memorylens-mcp' }, option: 'package:0', name: 'lens', values: {} })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'this option cannot be installed: nuget packages are not installed by Switchboard (it runs npm, pypi, oci and mcpb)' },
    });
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(before);
    expect(await vault.list()).toEqual([]);
  });

  it('lists a curated catalog of well-known servers, and one installs and connects', async () => {
    await startCore();
    const items = await call<{ id: string; options: { usable: boolean }[] }[]>('listCatalog', {});
    expect(items.length).toBeGreaterThanOrEqual(15);
    expect(items.length).toBeLessThanOrEqual(25);
    expect(items.every((i) => i.options.length > 0 && i.options.every((o) => o.usable))).toBe(true);
    expect(items.map((i) => i.id)).toEqual(expect.arrayContaining(['filesystem', 'git', 'memory', 'fetch', 'time', 'sequential-thinking', 'playwright', 'github']));
    await call('installServer', { source: { catalog: 'everything' }, option: 'package:0', name: 'everything', values: {} });
    await expect.poll(() => core!.snapshot().servers.find((s) => s.name === 'everything')?.state, { timeout: 60_000 }).toBe('connected');
    expect(core!.snapshot().servers.find((s) => s.name === 'everything')?.sandbox).toMatchObject({ status: 'on', domains: ['registry.npmjs.org'] });
  }, 90_000);

  it('downloads an mcpb package, checks its fileSha256, and hands it to the bundle installer', async () => {
    await startCore();
    const { upload } = await call<{ upload: string }>('downloadRegistryBundle', { source: { registry: 'io.example/hello-bundle' }, option: 'package:0' });
    expect(await call('previewBundle', { upload })).toMatchObject({ manifestName: 'hello-bundle' });
    expect(await dispatch(core!.handlers, 'downloadRegistryBundle', { source: { registry: 'io.example/hello-bundle' }, option: 'package:1' })).toEqual({
      ok: false,
      error: {
        code: 'invalid_input',
        message: `the bundle at https://127.0.0.1/y does not match its fileSha256 (expected ${'0'.repeat(64)}, got ${createHash('sha256').update(hello).digest('hex')}); it was not kept`,
      },
    });
  }, 60_000);

  it('refuses a registry URL that is not https or loopback', async () => {
    await startCore();
    expect(await dispatch(core!.handlers, 'setRegistryUrl', { url: 'http://registry.corp.example' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'registry URL "http://registry.corp.example" is not allowed: plain http is allowed only to this computer (loopback)' },
    });
    expect(await call('getRegistryUrl', {})).toEqual({ url: registry.url });
  });
});
