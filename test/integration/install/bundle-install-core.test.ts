import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLE_CHUNK_BYTES, type ServerStateKind } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { packFixture } from '../../support/bundles';

/** A real bundle (packed by the mcpb CLI) through the contract, into the real keychain, approved, connected, uninstalled. */

const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
if (!keychain) console.warn('bundle install core test skipped: no test keychain (run under bash test/with-keychain.sh)');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let home: string;
let core: SwitchboardCore | undefined;
let vault: KeytarVault;
let hello: string;

beforeAll(async () => {
  hello = await packFixture();
}, 60_000);
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-bundle-core-'));
});
afterEach(async () => {
  await core?.stop();
  core = undefined;
  await rm(home, { recursive: true, force: true });
});

async function startCore(): Promise<SwitchboardCore> {
  vault = new KeytarVault(`switchboard-test-${randomUUID()}`);
  core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quiet, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 } });
  await core.start();
  return core;
}
const find = (name: string) => core!.snapshot().servers.find((s) => s.name === name);
const stateOf = (name: string): ServerStateKind | undefined => find(name)?.state;
const call = async (method: string, payload: unknown) => {
  const result = await dispatch(core!.handlers, method, payload);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value as never;
};

/** What the UI does with a picked file: announce it, then send it in chunks. */
async function upload(file: string): Promise<string> {
  const bytes = await readFile(file);
  const { upload: id } = await call('beginBundleUpload', { size: bytes.length });
  for (let offset = 0; offset < bytes.length; offset += BUNDLE_CHUNK_BYTES) {
    await call('appendBundleUpload', { upload: id, offset, data: bytes.subarray(offset, offset + BUNDLE_CHUNK_BYTES).toString('base64') });
  }
  return id;
}

describe.skipIf(!keychain)('installing a bundle through the core', () => {
  it('holds it until approved, starts it with the secret from the keychain, and uninstalls every trace', async () => {
    await startCore();
    const id = await upload(hello);
    const preview = await call('previewBundle', { upload: id });
    expect(preview).toMatchObject({ manifestName: 'hello-bundle', suggestedName: 'hello-bundle' });
    expect(await call('installBundle', { upload: id, name: 'hello', values: { greeting: 'hey' }, secrets: { api_key: 'sk-live-123' } })).toEqual({ name: 'hello', updated: false });

    await expect.poll(() => stateOf('hello'), { timeout: 10_000 }).toBe('trust_required');
    expect(find('hello')?.source).toBe(join(home, 'bundles.json'));
    expect(await vault.get('bundle.hello.api_key')).toBe('sk-live-123');
    expect(await readFile(join(home, 'bundles.json'), 'utf8')).not.toContain('sk-live-123');
    // The upload is gone once installed.
    expect(await readdir(join(home, 'bundles', '.uploads'))).toEqual([]);

    await call('approveTrust', { name: 'hello' });
    await expect.poll(() => stateOf('hello'), { timeout: 20_000 }).toBe('connected');
    // Listed as a bundle's approval, not a project's.
    expect(await call('listTrust', {})).toEqual([expect.objectContaining({ name: 'hello', sourcePath: join(home, 'bundles.json'), bundle: true })]);
    const result = await core!.mcp.callServerTool('hello', 'settings', {});
    const settings = JSON.parse((result.content[0] as { text: string }).text);
    expect(settings).toEqual({ argv: ['--greeting', 'hey', join(process.env.HOME!, 'Documents')], apiKey: 'sk-live-123', limit: '5' });

    // "Remove" on a bundle's server uninstalls it.
    await call('removeServer', { name: 'hello' });
    await expect.poll(() => find('hello'), { timeout: 10_000 }).toBeUndefined();
    expect(await vault.get('bundle.hello.api_key')).toBeUndefined();
    expect((await readdir(join(home, 'bundles'))).filter((f) => !f.startsWith('.'))).toEqual([]);
    expect(await call('listTrust', {})).toEqual([]);
  }, 60_000);

  it('refuses an out-of-order chunk and an unfinished upload with exact errors', async () => {
    await startCore();
    const { upload: id } = await call('beginBundleUpload', { size: 10 });
    expect(await dispatch(core!.handlers, 'appendBundleUpload', { upload: id, offset: 4, data: 'AAAA' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `upload ${id}: expected the chunk at byte 0, got 4` },
    });
    expect(await dispatch(core!.handlers, 'previewBundle', { upload: id })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `upload ${id} is incomplete: 0 of 10 bytes arrived` },
    });
    expect(await dispatch(core!.handlers, 'beginBundleUpload', { size: 300 * 1024 * 1024 })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'the bundle is 300.0 MiB; bundles of at most 256.0 MiB can be installed' },
    });
  });
});
