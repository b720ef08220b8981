import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as KeytarModule from 'keytar';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlainSecretScan, ServersSnapshot } from '../../../src-preload/contract';
import { parseConfigText } from '../../../src-main/core/config/parse-config-file';
import { dispatch } from '../../../src-main/core/dispatch';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { callByName, EVERYTHING, quietLogger, tempHome } from '../mcp/helpers';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const skipReason = hasKeychain ? '' : ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]';
// A throwaway service per run: never a real "Switchboard" entry.
const service = `Switchboard-migration-test-${randomBytes(4).toString('hex')}`;
// Canaries: random, so finding one anywhere can only mean it leaked there.
const TOKEN = `ghp_canary_${randomBytes(12).toString('hex')}`;
const BEARER = `tok_canary_${randomBytes(12).toString('hex')}`;

const config = `{
  // written by hand, with a token pasted in
  "servers": {
    "ev": { "command": "${process.execPath}", "args": ["${EVERYTHING}", "stdio"], "env": { "GITHUB_TOKEN": "${TOKEN}", "MODE": "plain" } },
    "api": { "url": "http://127.0.0.1:9/mcp", "enabled": false, "headers": { "Authorization": "Bearer ${BEARER}" } }
  }
}
`;

/** Every file under dir, recursively (the data home after a move must hold no canary anywhere). */
async function everyFile(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await everyFile(path)));
    else out.push(path);
  }
  return out;
}

describe.skipIf(!hasKeychain)(`moving plain secrets into the real OS keychain${skipReason}`, () => {
  const keytar = createRequire(import.meta.url)('keytar') as typeof KeytarModule;
  const vault = new KeytarVault(service);
  let home: string;
  let cleanup: () => Promise<void>;
  let core: SwitchboardCore | undefined;
  const file = () => join(home, 'servers.json');

  beforeEach(async () => {
    ({ home, cleanup } = await tempHome());
    await writeFile(file(), config);
  });
  afterEach(async () => {
    await core?.stop();
    core = undefined;
    await cleanup();
    for (const name of await vault.list()) await vault.delete(name);
  });
  afterAll(async () => {
    for (const name of await vault.list()) await vault.delete(name);
  });

  async function startCore(withVault = vault): Promise<{ core: SwitchboardCore; last: () => ServersSnapshot | undefined }> {
    const c = new SwitchboardCore({ home, vault: withVault, opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
    let last: ServersSnapshot | undefined;
    c.events.subscribe((name, payload) => {
      if (name === 'serversChanged') last = payload as ServersSnapshot;
    });
    await c.start();
    core = c;
    return { core: c, last: () => last };
  }

  async function envSeenBy(c: SwitchboardCore): Promise<Record<string, string>> {
    const result = await callByName(c.mcp, 'ev__get-env', {});
    const text = (result.content as { type: string; text?: string }[]).find((p) => p.type === 'text')?.text ?? '';
    return JSON.parse(text) as Record<string, string>;
  }

  it('moves both values into the keychain; servers.json holds references, still parses, and the server gets the secret', async () => {
    const { core: c } = await startCore();
    expect((await envSeenBy(c)).GITHUB_TOKEN).toBe(TOKEN);

    const scan = await dispatch(c.handlers, 'findPlainSecrets', {});
    expect(scan).toEqual({
      ok: true,
      value: {
        path: file(),
        proposals: [
          { server: 'ev', field: 'env', key: 'GITHUB_TOKEN', secretName: 'ev-GITHUB_TOKEN' },
          { server: 'api', field: 'headers', key: 'Authorization', secretName: 'api-Authorization' },
        ],
      },
    });
    expect(JSON.stringify(scan)).not.toContain(TOKEN);
    expect(JSON.stringify(scan)).not.toContain(BEARER);

    const items = (scan as { value: PlainSecretScan }).value.proposals;
    const moved = await dispatch(c.handlers, 'movePlainSecrets', { items, backup: false });
    expect(moved).toEqual({ ok: true, value: { moved: ['ev-GITHUB_TOKEN', 'api-Authorization'] } });
    expect(JSON.stringify(moved)).not.toContain(TOKEN);

    expect(await keytar.getPassword(service, 'ev-GITHUB_TOKEN')).toBe(TOKEN);
    expect(await keytar.getPassword(service, 'api-Authorization')).toBe(BEARER);

    const after = await readFile(file(), 'utf8');
    expect(after).toContain('// written by hand, with a token pasted in');
    const parsed = parseConfigText(after, { path: file(), origin: 'switchboard', userWritten: true });
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers.find((s) => s.name === 'ev')).toMatchObject({ env: { GITHUB_TOKEN: '${secret:ev-GITHUB_TOKEN}', MODE: 'plain' } });
    expect(parsed.servers.find((s) => s.name === 'api')).toMatchObject({ headers: { Authorization: 'Bearer ${secret:api-Authorization}' } });

    expect(await dispatch(c.handlers, 'findPlainSecrets', {})).toEqual({ ok: true, value: { path: file(), proposals: [] } });
    // A fresh start reads only the references: the value "ev" sees can only have come from the keychain.
    await c.stop();
    core = undefined;
    const { core: fresh } = await startCore();
    expect((await envSeenBy(fresh)).GITHUB_TOKEN).toBe(TOKEN);
    expect((await envSeenBy(fresh)).MODE).toBe('plain');

    // Stopped first: a running core keeps writing its tool cache (temp file, then rename).
    await fresh.stop();
    core = undefined;
    const files = await everyFile(home);
    expect(files).toContain(file());
    expect(files.some((f) => f.includes(join('cache', 'tools')))).toBe(true);
    for (const path of files) {
      const bytes = await readFile(path, 'utf8');
      expect(bytes, path).not.toContain(TOKEN);
      expect(bytes, path).not.toContain(BEARER);
    }
  });

  it('a keychain write that fails rolls back what was stored and leaves servers.json byte-for-byte unchanged', async () => {
    // The real keychain, with its second write refused (as a locked or full keyring would).
    let writes = 0;
    const failing = new KeytarVault(service, {
      ...keytar,
      setPassword: async (s: string, a: string, p: string) => {
        if (++writes === 2) throw new Error('Cannot create an item in a locked collection');
        return keytar.setPassword(s, a, p);
      },
    });
    const { core: c } = await startCore(failing);
    const scan = await dispatch(c.handlers, 'findPlainSecrets', {});
    const items = (scan as { value: PlainSecretScan }).value.proposals;
    expect(await dispatch(c.handlers, 'movePlainSecrets', { items, backup: true })).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message:
          'secret api-Authorization could not be stored: the OS keychain is not available (Cannot create an item in a locked collection); on Linux, Switchboard needs a Secret Service such as gnome-keyring or KWallet running and unlocked; nothing was moved and servers.json is unchanged',
      },
    });
    expect(writes).toBe(2);
    expect(await readFile(file(), 'utf8')).toBe(config);
    expect(await keytar.findCredentials(service)).toEqual([]);
    expect(await readdir(home)).not.toContain(expect.stringMatching(/bak/));
  });

  it('keeps a 0600 backup of the old file only when asked', async () => {
    const { core: c } = await startCore();
    const first = (await dispatch(c.handlers, 'findPlainSecrets', {})) as { value: PlainSecretScan };
    const noBackup = await dispatch(c.handlers, 'movePlainSecrets', { items: first.value.proposals.slice(1), backup: false });
    expect(noBackup).toEqual({ ok: true, value: { moved: ['api-Authorization'] } });
    expect((await readdir(home)).filter((n) => n.startsWith('servers.json'))).toEqual(['servers.json']);

    const before = await readFile(file(), 'utf8');
    const second = (await dispatch(c.handlers, 'findPlainSecrets', {})) as { value: PlainSecretScan };
    const withBackup = await dispatch(c.handlers, 'movePlainSecrets', { items: second.value.proposals, backup: true });
    expect(withBackup.ok).toBe(true);
    const { backupPath } = (withBackup as { value: { backupPath: string } }).value;
    expect(backupPath).toMatch(new RegExp(`^${file().replace(/[.]/g, '\\.')}\\.bak-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\d-\\d{3}Z$`));
    expect(await readFile(backupPath, 'utf8')).toBe(before);
    expect((await stat(backupPath)).mode & 0o777).toBe(0o600);
    expect(await readFile(file(), 'utf8')).not.toContain(TOKEN);
  });
});
