import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { BUNDLE_CHUNK_BYTES } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore, type CoreDeps } from '../../../src-main/core/switchboard-core';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

/** A real core per test in a fresh data home with its own keychain service; calls go through the contract, as the UI's do. */
export function installCoreHarness(prefix: string) {
  const state = { home: '', core: undefined as SwitchboardCore | undefined, vault: undefined as unknown as KeytarVault };
  beforeEach(async () => {
    state.home = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await state.core?.stop();
    state.core = undefined;
    await rm(state.home, { recursive: true, force: true });
  });
  const attempt = (method: string, payload: unknown) => dispatch(state.core!.handlers, method, payload);
  const call = async <T = unknown>(method: string, payload: unknown): Promise<T> => {
    const result = await attempt(method, payload);
    if (!result.ok) throw new Error(result.error.message);
    return result.value as T;
  };
  return {
    state,
    attempt,
    call,
    async start(before: (vault: KeytarVault) => Promise<void> = async () => {}, deps: Partial<CoreDeps> = {}): Promise<SwitchboardCore> {
      state.vault = new KeytarVault(`switchboard-test-${randomUUID()}`);
      await before(state.vault);
      state.core = new SwitchboardCore({ home: state.home, vault: state.vault, opener: { open: async () => {} }, logger: quiet, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 }, ...deps });
      await state.core.start();
      return state.core;
    },
    /** What the UI does with a picked file: announce it, then send it in chunks. */
    async upload(file: string): Promise<string> {
      const bytes = await readFile(file);
      const { upload: id } = await call<{ upload: string }>('beginBundleUpload', { size: bytes.length });
      for (let offset = 0; offset < bytes.length; offset += BUNDLE_CHUNK_BYTES) {
        await call('appendBundleUpload', { upload: id, offset, data: bytes.subarray(offset, offset + BUNDLE_CHUNK_BYTES).toString('base64') });
      }
      return id;
    },
  };
}
