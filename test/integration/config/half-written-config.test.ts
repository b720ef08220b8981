import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ServerStateKind } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { oauthKeys } from '../../../src-main/core/oauth/credential-store';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { stateOf, viewOf } from './core-steps';
import { startEverything, stopChild } from '../../fixtures/servers/everything-http';

/**
 * Nothing is lost to a file in mid-write (issue 21): an editor that saves by truncating and then writing leaves
 * servers.json empty for a moment. Real file, real watcher, real keychain, server-everything over streamable HTTP.
 */

const keychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const ISSUER = 'https://as.example';
const CLIENT = 'switchboard-client';

let everything: Awaited<ReturnType<typeof startEverything>>;
let root: string;
let home: string;
let vault: KeytarVault;
let core: SwitchboardCore | undefined;

beforeAll(async () => {
  everything = await startEverything('streamableHttp');
});
afterAll(async () => {
  await stopChild(everything.child);
});
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-half-written-'));
  home = join(root, 'home');
  await mkdir(home, { recursive: true });
  vault = new KeytarVault(`switchboard-test-${randomUUID()}`);
});
afterEach(async () => {
  await core?.stop();
  core = undefined;
  if (keychain) for (const name of await vault.list()) await vault.delete(name);
  await rm(root, { recursive: true, force: true });
});

const find = (name: string) => viewOf(core!, name);
const state = (name: string, kind: ServerStateKind) => stateOf(core!, name, kind);

/** servers.json with one remote server, signed in; the core started on it and the server connected. */
async function startSignedIn(): Promise<{ file: string; text: string; keys: string[] }> {
  const file = join(home, 'servers.json');
  const text = JSON.stringify({ servers: { docs: { url: everything.url, transport: 'streamable-http' } } });
  await writeFile(file, text);
  const keys = await signedIn('docs');
  core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quiet });
  await core.start();
  await state('docs', 'connected');
  return { file, text, keys };
}

/** What a sign-in leaves in the keychain for `server` (its binding names its tokens). */
async function signedIn(server: string): Promise<string[]> {
  const resource = everything.url;
  await vault.set(oauthKeys.binding(server), JSON.stringify({ serverUrl: everything.url, issuer: ISSUER, clientId: CLIENT, resource, discovery: {} }));
  await vault.set(oauthKeys.tokens(ISSUER, CLIENT, resource), JSON.stringify({ issuer: ISSUER, clientId: CLIENT, resource, tokens: { access_token: 'at-1', token_type: 'Bearer', refresh_token: 'rt-1' } }));
  return [oauthKeys.binding(server), oauthKeys.tokens(ISSUER, CLIENT, resource)];
}
const held = (path: string) => `${path} reads as empty; its last servers stay in use while it may still be being written`;

describe.skipIf(!keychain)('a servers.json in mid-write (SECURITY S2)', () => {
  it('keeps the servers and their credentials while an editor truncates, then rewrites the file', async () => {
    const { file, text, keys } = await startSignedIn();

    await writeFile(file, ''); // the editor's truncate…
    // …seen by the watcher: the server is held, not removed.
    await expect.poll(() => core!.snapshot().problems.map((p) => p.message).includes(held(file)) || find('docs') === undefined).toBe(true);
    expect(find('docs')?.state).toBe('connected');
    await writeFile(file, text); // …and its write.
    await expect.poll(() => core!.snapshot().problems).toEqual([]);

    expect(find('docs')?.state).toBe('connected');
    for (const key of keys) expect(await vault.get(key)).toBeDefined();
  });

  it('applies a file the person emptied once it stays empty, and only then deletes the credentials', async () => {
    const { file, keys } = await startSignedIn();

    await writeFile(file, '');
    await expect.poll(() => find('docs'), { timeout: 15_000 }).toBeUndefined();
    expect(core!.snapshot().problems).toEqual([]);
    for (const key of keys) await expect.poll(() => vault.get(key)).toBeUndefined();
  });

  it("deletes them at once when the person removes the server through Switchboard", async () => {
    const { keys } = await startSignedIn();
    expect(await dispatch(core!.handlers, 'removeServer', { name: 'docs' })).toEqual({ ok: true, value: null });
    expect(find('docs')).toBeUndefined();
    for (const key of keys) expect(await vault.get(key)).toBeUndefined();
  });
});
