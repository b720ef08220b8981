import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerStateKind } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { callHandler, hasTestKeychain, homeAndProject, quietLogger, TOOLBOX, putJson, stateOf, viewOf } from './core-steps';

/** The config area as the core wires it: real files, the real watcher, the real manager and a real stdio server. */

const quiet = quietLogger;
const keychain = hasTestKeychain;

let root: string;
let home: string;
let proj: string;
let core: SwitchboardCore | undefined;

beforeEach(async () => {
  ({ root, home, proj } = await homeAndProject('sb-core-config-'));
});
afterEach(async () => {
  await core?.stop();
  core = undefined;
  await rm(root, { recursive: true, force: true });
});

async function startCore(): Promise<SwitchboardCore> {
  core = new SwitchboardCore({
    home,
    // A throwaway keychain service: nothing here touches real "Switchboard" entries.
    vault: new KeytarVault(`switchboard-test-${randomUUID()}`),
    opener: { open: async () => {} },
    logger: quiet,
    mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 },
  });
  await core.start();
  return core;
}

const find = (name: string) => viewOf(core!, name);
const state = (name: string, kind: ServerStateKind) => stateOf(core!, name, kind);
const call = (method: string, payload: unknown) => callHandler(core!, method, payload);
const put = putJson;

describe('SwitchboardCore config wiring', () => {
  it('holds a project stdio server until approved, and asks again when its args change in the file', async () => {
    await put(join(home, 'servers.json'), { servers: { own: { command: 'node', args: [TOOLBOX] } } });
    await put(join(proj, '.mcp.json'), { mcpServers: { tools: { command: 'node', args: [TOOLBOX] } } });
    await startCore();
    await state('own', 'connected');
    await call('addProject', { path: proj });
    const held = await state('tools', 'trust_required');
    expect(held.reason).toBe(`defined in ${join(proj, '.mcp.json')}, which you did not write in Switchboard: approve "node" before it runs`);
    expect(held.source).toBe(join(proj, '.mcp.json'));

    await call('approveTrust', { name: 'tools' });
    await state('tools', 'connected');

    // An outside edit of what runs: the watcher applies it, the manager restarts it, the gate holds it again.
    await put(join(proj, '.mcp.json'), { mcpServers: { tools: { command: 'node', args: [TOOLBOX, '--name', 'changed'] } } });
    await state('tools', 'trust_required');
    expect(find('own')?.state).toBe('connected');

    await call('approveTrust', { name: 'tools' });
    await state('tools', 'connected');
    await call('revokeTrust', { name: 'tools' });
    await state('tools', 'trust_required');
  });

  it('applies a server added through dispatch, and keeps it running when its file turns invalid', async () => {
    await startCore();
    await call('addServer', { name: 'added', entry: { command: 'node', args: [TOOLBOX] } });
    await state('added', 'connected');
    const broken = '{ "servers": { "added": ';
    await writeFile(join(home, 'servers.json'), broken);
    await expect.poll(() => core!.snapshot().problems.map((p) => p.message)).toEqual([
      `${join(home, 'servers.json')}:1:${broken.length + 1}: invalid JSON (value expected); the last good settings of added stay in use until it is fixed`,
    ]);
    expect(find('added')?.state).toBe('connected');
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(broken);
  });

  it('refuses a bad entry through dispatch with the exact message, leaving servers.json as it was', async () => {
    const text = '{ "servers": {} }\n';
    await writeFile(join(home, 'servers.json'), text);
    await startCore();
    expect(await dispatch(core!.handlers, 'addServer', { name: 'x', entry: { command: 'a', url: 'https://a.example' } })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'server "x": has both "command" and "url"; a server is either local (command) or remote (url)' },
    });
    expect(await dispatch(core!.handlers, 'addServer', { name: 'a b', entry: { command: 'a' } })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'addServer: invalid payload at "name": server name may use only letters, digits, "_", "." and "-"' },
    });
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(text);
  });

  it('puts a server whose secret is not in the keychain in error, with no launch', async (ctx) => {
    if (!keychain) return ctx.skip('no test keychain: run under bash test/with-keychain.sh');
    await put(join(home, 'servers.json'), { servers: { gh: { command: 'node', args: [TOOLBOX], env: { TOKEN: '${secret:NOT_SET_ANYWHERE}' } } } });
    await startCore();
    expect((await state('gh', 'error')).reason).toBe('secret NOT_SET_ANYWHERE is not set');
  });
});
