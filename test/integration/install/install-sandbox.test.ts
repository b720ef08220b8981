import { createServer, type Server } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { packFixture, writeZip, type ManifestJson } from '../../support/bundles';
import { startFakeRegistry, type FakeRegistry } from '../../support/registry-server';
import { installCoreHarness } from './install-core-harness';

/**
 * Installs and their sandbox (SECURITY V2, X1) and the administrator's policy at install time (X2), through
 * the contract into a real core: a loopback registry, .mcpb bundles packed by the official CLI, install links,
 * a policy file named by SWITCHBOARD_POLICY, real bubblewrap for the bundle that runs.
 */

const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
if (!keychain) console.warn('install sandbox test skipped: no test keychain (run under bash test/with-keychain.sh)');

const plain = {
  name: 'io.example/plain',
  description: 'a plain npm server',
  packages: [{ registryType: 'npm', identifier: '@example/plain', version: '1.0.0', transport: { type: 'stdio' } }],
};
/** A document that tries to write its own sandbox: off, the whole disk and home writable, ~/.ssh readable, every host. */
const greedySandbox = { filesystem: { allowWrite: ['/', '~'], allowRead: ['~/.ssh'] }, network: { allowedDomains: ['*', 'evil.example'] } };
const greedy = {
  name: 'io.example/greedy',
  description: 'a server.json asking for its own sandbox',
  sandboxEnabled: false,
  sandbox: greedySandbox,
  _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { sandboxEnabled: false, sandbox: greedySandbox } },
  packages: [{ registryType: 'npm', identifier: '@example/greedy', version: '1.0.0', transport: { type: 'stdio' }, sandboxEnabled: false, sandbox: greedySandbox }],
};
const PROBE = 'test/fixtures/bundles/probe';

let registry: FakeRegistry;
const { state, start, attempt, call, upload } = installCoreHarness('sb-install-sandbox-');
const saved = { policy: process.env.SWITCHBOARD_POLICY, home: process.env.SWITCHBOARD_HOME };
let policyDir = '';

beforeAll(async () => {
  registry = await startFakeRegistry([plain, greedy]);
});
afterAll(() => registry.close());
beforeEach(async () => {
  policyDir = await mkdtemp(join(tmpdir(), 'sb-policy-'));
  // The launch reads the data home from the environment: the bundle's folder must lie in the one it seals.
  process.env.SWITCHBOARD_HOME = state.home;
  process.env.SWITCHBOARD_POLICY = join(policyDir, 'policy.json');
});
afterEach(async () => {
  for (const [key, value] of [['SWITCHBOARD_POLICY', saved.policy], ['SWITCHBOARD_HOME', saved.home]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await rm(policyDir, { recursive: true, force: true });
});

async function startCore(policy?: unknown): Promise<void> {
  if (policy !== undefined) await writeFile(process.env.SWITCHBOARD_POLICY!, typeof policy === 'string' ? policy : JSON.stringify(policy));
  await start();
  await call('setRegistryUrl', { url: registry.url });
}
const servers = async () => JSON.parse((await readFile(join(state.home, 'servers.json'), 'utf8').catch(() => '{}')) || '{}').servers ?? {};
const bundleEntries = async () => JSON.parse(await readFile(join(state.home, 'bundles.json'), 'utf8').catch(() => '{}')).servers ?? {};
const link = (entry: unknown) => `switchboard://install?config=${Buffer.from(JSON.stringify(entry)).toString('base64url')}&name=linked`;

type OptionView = { id: string; usable: boolean; reason?: string; sandbox?: { on: boolean; sandbox: unknown; setByOrganization: boolean } };
const catalogOption = async (id: string) => (await call<{ id: string; options: OptionView[] }[]>('listCatalog', {})).find((i) => i.id === id)!.options[0]!;
const registryOption = async (name: string) => (await call<{ servers: { name: string; options: OptionView[] }[] }>('searchRegistry', { query: name })).servers.find((s) => s.name === name)!.options[0]!;

describe.skipIf(!keychain)('an install writes the sandbox its form showed (SECURITY V2, X1)', () => {
  it('the catalog and a registry package show the sandbox Install writes, and the entry holds exactly that; switched off, sandboxEnabled: false and nothing else', async () => {
    await startCore();
    const memory = await catalogOption('memory');
    expect(memory.sandbox).toEqual({ on: true, setByOrganization: false, sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } } });
    await call('installServer', { source: { catalog: 'memory' }, option: memory.id, name: 'memory', values: {} });
    const npm = await registryOption(plain.name);
    expect(npm.sandbox).toEqual({ on: true, setByOrganization: false, sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } } });
    await call('installServer', { source: { registry: plain.name }, option: npm.id, name: 'plain-off', values: {}, sandbox: false });
    const written = await servers();
    expect({ sandboxEnabled: written.memory.sandboxEnabled, sandbox: written.memory.sandbox }).toEqual({ sandboxEnabled: true, sandbox: memory.sandbox!.sandbox });
    expect(written['plain-off']).toEqual({ command: 'npx', args: ['-y', '@example/plain@1.0.0'], env: {}, sandboxEnabled: false });
  });

  it('a server.json that sets its own sandbox — off, / and ~ writable, ~/.ssh readable, every host — is not heard: it gets its runner\'s host only', async () => {
    await startCore();
    const option = await registryOption(greedy.name);
    expect(option.sandbox).toEqual({ on: true, setByOrganization: false, sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } } });
    await call('installServer', { source: { registry: greedy.name }, option: option.id, name: 'greedy', values: {} });
    expect((await servers()).greedy).toEqual({ command: 'npx', args: ['-y', '@example/greedy@1.0.0'], env: {}, sandboxEnabled: true, sandbox: { network: { allowedDomains: ['registry.npmjs.org'] } } });
  });

  it('an install link cannot set its sandbox: the fields are refused by name; a linked command is shown and written sandboxed', async () => {
    await startCore();
    for (const entry of [{ command: 'node', sandboxEnabled: false }, { command: 'node', sandbox: greedySandbox }]) {
      expect(await attempt('readInstallLink', { link: link(entry) })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/"sandbox(Enabled)?" is a field the install form does not show/) } });
      expect(await attempt('installLinkedServer', { name: 'linked', entry })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    const shown = await call<{ entry: Record<string, unknown>; sandbox: unknown }>('readInstallLink', { link: link({ command: 'node', args: ['x.js'] }) });
    expect(shown.sandbox).toEqual({ on: true, setByOrganization: false, sandbox: {} });
    await call('installLinkedServer', { name: 'linked', entry: shown.entry });
    expect((await servers()).linked).toEqual({ command: 'node', args: ['x.js'], env: {}, sandboxEnabled: true });
  });
});

describe.skipIf(!keychain)('a .mcpb bundle runs sandboxed (SECURITY X1)', () => {
  let secret = '';
  let listener: Server | undefined;
  afterEach(async () => {
    if (secret) await rm(secret, { force: true });
    secret = '';
    listener?.close();
  });

  it('reads its own folder, writes the workspace picked for it, and is refused the home folder, other writes and the network', async () => {
    await startCore();
    const workspace = await mkdtemp(join(tmpdir(), 'sb-probe-workspace-'));
    await writeFile(join(workspace, 'note.txt'), 'in the workspace');
    // A secret place outside the sandbox's view: it exists in the real home, the bundle was never given it.
    secret = join(homedir(), `.sb-probe-secret-${process.pid}`);
    await writeFile(secret, 'the person\'s secret');
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener!.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as { port: number }).port;

    const id = await upload(await packFixture(() => {}, PROBE));
    const preview = await call<{ sandbox: unknown; fields: { key: string; grants?: string }[] }>('previewBundle', { upload: id });
    expect(preview.sandbox).toEqual({ on: true, setByOrganization: false });
    expect(preview.fields.map((f) => [f.key, f.grants])).toEqual([['workspace', 'write'], ['notes', 'read']]);
    await call('installBundle', { upload: id, name: 'probe', values: { workspace, notes: '' }, secrets: {} });
    expect((await bundleEntries()).probe).toMatchObject({ sandboxEnabled: true, sandbox: { filesystem: { allowWrite: [workspace] } } });
    const core = state.core!;
    const row = () => core.snapshot().servers.find((s) => s.name === 'probe');
    await expect.poll(() => row()?.state, { timeout: 10_000 }).toBe('trust_required');
    await call('approveTrust', { name: 'probe' });
    await expect.poll(() => row()?.state, { timeout: 20_000 }).toBe('connected');

    const probe = async (op: string, target: string) => {
      const result = await core.mcp.callServerTool('probe', 'probe', { op, target });
      return { error: result.isError === true, text: (result.content[0] as { text: string }).text };
    };
    expect(await probe('read', join(workspace, 'note.txt'))).toEqual({ error: false, text: 'in the workspace' });
    expect(await probe('write', join(workspace, 'out.txt'))).toEqual({ error: false, text: 'written' });
    expect(await readFile(join(workspace, 'out.txt'), 'utf8')).toBe('written by the probe');
    const short = `~/${secret.slice(homedir().length + 1)}`;
    expect(await probe('read', secret)).toMatchObject({ error: true, text: `blocked by the sandbox: read ${short}` });
    expect(await probe('write', join(homedir(), `.sb-probe-planted-${process.pid}`))).toEqual({ error: true, text: `blocked by the sandbox: write ~/.sb-probe-planted-${process.pid}` });
    expect(await probe('read', join(state.home, 'bundles.json'))).toMatchObject({ error: true });
    expect(await probe('connect', `127.0.0.1:${port}`)).toMatchObject({ error: true });

    // Allow on the bundle's row writes the grant into its own entry in bundles.json.
    await expect.poll(() => row()?.sandbox?.denial?.text).toMatch(/^blocked by the sandbox: connect to 127\.0\.0\.1:/);
    await probe('read', secret);
    expect(row()?.sandbox?.denial).toEqual({ kind: 'read', text: `blocked by the sandbox: read ${short}` });
    expect(await call('allowSandboxDenial', { name: 'probe' })).toBeNull();
    expect((await bundleEntries()).probe.sandbox).toEqual({ filesystem: { allowWrite: [workspace], allowRead: [secret] } });
    // The changed sandbox block restarts it (it is part of the launch), now with the grant.
    await expect.poll(async () => (row()?.state === 'connected' ? (await probe('read', secret)).text : row()?.state), { timeout: 30_000 }).toBe('the person\'s secret');
    expect(row()?.sandbox?.denial).toBeUndefined();
  }, 120_000);

  it('refuses a picked folder that would open the home folder, /, the data home or ~/.ssh, naming the setting, and installs nothing', async () => {
    await startCore();
    const id = await upload(await packFixture(() => {}, PROBE));
    for (const workspace of ['/', homedir(), '~/.ssh', state.home, join(state.home, 'bundles')]) {
      expect(await attempt('installBundle', { upload: id, name: 'probe', values: { workspace }, secrets: {} })).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: expect.stringContaining('"Workspace" (workspace) is') },
      });
    }
    expect(await attempt('installBundle', { upload: id, name: 'probe', values: { workspace: '/srv', notes: '~/.netrc' }, secrets: {} })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('"Notes file" (notes) is ~/.netrc, which would give the bundle a place that holds secrets') },
    });
    expect(await bundleEntries()).toEqual({});
  }, 60_000);

  it('a manifest whose folder default is the home folder is refused at install unless the person picks another', async () => {
    await startCore();
    const file = await packFixture((m: ManifestJson) => ((m.user_config as Record<string, { default?: unknown; required?: boolean }>).workspace!.default = '${HOME}'), PROBE);
    const id = await upload(file);
    expect(await attempt('installBundle', { upload: id, name: 'probe', values: {}, secrets: {} })).toMatchObject({ ok: false, error: { message: expect.stringContaining('your whole home folder') } });
    const inside = join(homedir(), 'Documents');
    expect(await attempt('installBundle', { upload: id, name: 'probe', values: { workspace: inside }, secrets: {} })).toMatchObject({ ok: true });
    expect((await bundleEntries()).probe.sandbox).toEqual({ filesystem: { allowWrite: [inside] } });
  }, 60_000);

  it('a manifest that sets its own sandbox (off, / writable) is refused at preview: the official CLI will not pack it, and a hand-made zip fails the manifest schema', async () => {
    await startCore();
    const manifest = JSON.parse(await readFile(join(PROBE, 'manifest.json'), 'utf8')) as ManifestJson;
    const greedyManifest = { ...manifest, sandbox: greedySandbox, server: { ...manifest.server, mcp_config: { ...manifest.server.mcp_config, sandboxEnabled: false } } };
    const files = { 'manifest.json': new TextEncoder().encode(JSON.stringify(greedyManifest)), 'server/index.js': await readFile(join(PROBE, 'server/index.js')), 'lib/answer.js': await readFile(join(PROBE, 'lib/answer.js')) };
    const id = await upload(await writeZip(files, 'greedy.mcpb'));
    expect(await attempt('previewBundle', { upload: id })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining("the bundle's manifest.json is invalid at") } });
    expect(await attempt('installBundle', { upload: id, name: 'probe', values: { workspace: '/srv' }, secrets: {} })).toMatchObject({ ok: false });
    expect(await bundleEntries()).toEqual({});
  }, 60_000);

  it('the person may switch the sandbox off on the card, and the entry says so', async () => {
    await startCore();
    const id = await upload(await packFixture(() => {}, PROBE));
    await call('installBundle', { upload: id, name: 'probe', values: { workspace: '/srv' }, secrets: {}, sandbox: false });
    expect((await bundleEntries()).probe).toMatchObject({ sandboxEnabled: false });
    expect((await bundleEntries()).probe.sandbox).toBeUndefined();
  }, 60_000);
});

describe.skipIf(!keychain)('the administrator\'s policy at install time (SECURITY X2)', () => {
  const refusedEverywhere = async (message: RegExp) => {
    const npm = await registryOption(plain.name);
    expect(npm).toMatchObject({ usable: false, reason: expect.stringMatching(message) });
    expect((await catalogOption('memory')).usable).toBe(false);
    for (const [method, payload] of [
      ['installServer', { source: { registry: plain.name }, option: 'package:0', name: 'plain', values: {} }],
      ['installServer', { source: { catalog: 'memory' }, option: 'package:0', name: 'memory', values: {} }],
      ['installLinkedServer', { name: 'linked', entry: { command: 'node', args: ['x.js'] } }],
    ] as const) {
      expect(await attempt(method, payload), method).toMatchObject({ ok: false, error: { message: expect.stringMatching(message) } });
    }
    const id = await upload(await packFixture(() => {}, PROBE));
    expect(await attempt('previewBundle', { upload: id })).toMatchObject({ ok: false, error: { message: expect.stringMatching(message) } });
    expect(await attempt('installBundle', { upload: id, name: 'probe', values: { workspace: '/srv' }, secrets: {} })).toMatchObject({ ok: false, error: { message: expect.stringMatching(message) } });
    expect(await servers()).toEqual({});
    expect(await bundleEntries()).toEqual({});
  };

  it('installs "off" refuses the catalog, the registry, a link and a bundle, set by your organization, and writes nothing', async () => {
    await startCore({ installs: 'off' });
    await refusedEverywhere(/installing servers is turned off \(set by your organization\)/);
  }, 60_000);

  it('a broken policy file refuses every install with the reason: fail closed', async () => {
    await startCore('{ "installs": "allowed", ');
    await refusedEverywhere(/the policy set by your organization is broken \(.*is not valid JSON/);
  }, 60_000);

  it('installs "registry-only" lets the registry and the catalog install, and refuses a link and a bundle', async () => {
    await startCore({ installs: 'registry-only' });
    await call('installServer', { source: { registry: plain.name }, option: 'package:0', name: 'plain', values: {} });
    await call('installServer', { source: { catalog: 'memory' }, option: 'package:0', name: 'memory', values: {} });
    const only = /only servers from the registry may be installed \(set by your organization\)/;
    expect(await attempt('readInstallLink', { link: link({ command: 'node' }) })).toMatchObject({ ok: true });
    expect(await attempt('installLinkedServer', { name: 'linked', entry: { command: 'node' } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(only) } });
    const id = await upload(await packFixture(() => {}, PROBE));
    expect(await attempt('previewBundle', { upload: id })).toMatchObject({ ok: false, error: { message: expect.stringMatching(only) } });
    expect(Object.keys(await servers())).toEqual(['plain', 'memory']);
  }, 60_000);

  it('a denied package is shown as not installable and refused at install; others install', async () => {
    await startCore({ deniedServers: [{ package: '@example/plain' }, { registryName: greedy.name }] });
    const blocked = /this server is blocked \(set by your organization\)/;
    expect(await registryOption(plain.name)).toMatchObject({ usable: false, reason: expect.stringMatching(blocked) });
    expect(await registryOption(greedy.name)).toMatchObject({ usable: false, reason: expect.stringMatching(blocked) });
    expect(await attempt('installServer', { source: { registry: plain.name }, option: 'package:0', name: 'plain', values: {} })).toMatchObject({ ok: false, error: { message: expect.stringMatching(blocked) } });
    expect(await attempt('installLinkedServer', { name: 'linked', entry: { command: 'npx', args: ['-y', '@example/plain@2'] } })).toMatchObject({ ok: false, error: { message: expect.stringMatching(blocked) } });
    await call('installServer', { source: { catalog: 'memory' }, option: 'package:0', name: 'memory', values: {} });
    expect(Object.keys(await servers())).toEqual(['memory']);
  });

  it('sandbox "required" locks every form\'s switch on, and an install that switches it off is refused', async () => {
    await startCore({ sandbox: 'required' });
    expect((await catalogOption('playwright')).sandbox).toMatchObject({ on: true, setByOrganization: true });
    expect((await registryOption(plain.name)).sandbox).toMatchObject({ on: true, setByOrganization: true });
    const required = /must run sandboxed \(set by your organization\)/;
    expect(await attempt('installServer', { source: { registry: plain.name }, option: 'package:0', name: 'plain', values: {}, sandbox: false })).toMatchObject({ ok: false, error: { message: expect.stringMatching(required) } });
    const id = await upload(await packFixture(() => {}, PROBE));
    expect(await call('previewBundle', { upload: id })).toMatchObject({ sandbox: { on: true, setByOrganization: true } });
    expect(await attempt('installBundle', { upload: id, name: 'probe', values: { workspace: '/srv' }, secrets: {}, sandbox: false })).toMatchObject({ ok: false, error: { message: expect.stringMatching(required) } });
    expect(await servers()).toEqual({});
  }, 60_000);
});
