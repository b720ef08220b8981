import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerStateKind } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';

/** A stdio MCP server of our own (test/fixtures/servers/toolbox.mjs). */
export const TOOLBOX = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/servers/toolbox.mjs');
export const quietLogger = { info: () => {}, warn: () => {}, error: () => {} };
export const hasTestKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';

/** Steps the config tests take against a real core: read a server's view, wait for a state, call a handler, write a file. */

/** A started core on the data home `data`, whose servers.json holds `servers`: secrets in memory, no browser. */
export async function startCoreOn(data: string, servers: Record<string, unknown>): Promise<SwitchboardCore> {
  await mkdir(data, { recursive: true });
  await writeFile(join(data, 'servers.json'), JSON.stringify({ servers }, null, 2));
  const core = new SwitchboardCore({ home: data, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  await core.start();
  return core;
}

export const viewOf = (core: SwitchboardCore, name: string) => core.snapshot().servers.find((s) => s.name === name);

/** Resolves with the server's view once its state is `kind` (checked on every change; the test timeout bounds it). */
export function stateOf(core: SwitchboardCore, name: string, kind: ServerStateKind) {
  return new Promise<NonNullable<ReturnType<typeof viewOf>>>((done) => {
    const check = () => {
      const view = viewOf(core, name);
      if (view?.state === kind) {
        off();
        done(view);
      }
    };
    const off = core.events.subscribe(check);
    check();
  });
}

/** A handler called as the window calls it (schema-parsed); a refusal throws with its message. */
export async function callHandler(core: SwitchboardCore, method: string, payload: unknown): Promise<unknown> {
  const result = await dispatch(core.handlers, method, payload);
  if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
  return result.value;
}

export async function putJson(path: string, data: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(data));
}

/** A fresh folder holding a data home and a project folder. */
export async function homeAndProject(prefix: string): Promise<{ root: string; home: string; proj: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const [home, proj] = [join(root, 'home'), join(root, 'proj')];
  await mkdir(home, { recursive: true });
  await mkdir(proj, { recursive: true });
  return { root, home, proj };
}
