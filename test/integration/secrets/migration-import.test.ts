import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlainSecretScan } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { callByName, EVERYTHING, quietLogger, tempHome } from '../mcp/helpers';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const linux = process.platform === 'linux';
const skipReason = !hasKeychain
  ? ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]'
  : !linux
    ? ' [skipped: Claude Desktop\'s file is placed through XDG_CONFIG_HOME, which only Linux uses]'
    : '';
const service = `Switchboard-import-test-${randomBytes(4).toString('hex')}`;
const CANARY = `brave_canary_${randomBytes(12).toString('hex')}`;

describe.skipIf(skipReason !== '')(`plain secrets in a Claude Desktop file being imported${skipReason}`, () => {
  const vault = new KeytarVault(service);
  let home: string;
  let cleanup: () => Promise<void>;
  let core: SwitchboardCore | undefined;
  let savedXdg: string | undefined;
  let claudeFile: string;
  const claudeText = JSON.stringify({ mcpServers: { brave: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { BRAVE_API_KEY: CANARY } } } }, null, 2);

  beforeEach(async () => {
    ({ home, cleanup } = await tempHome());
    savedXdg = process.env.XDG_CONFIG_HOME;
    // Claude Desktop's file lives under XDG_CONFIG_HOME on Linux: a throwaway one here.
    process.env.XDG_CONFIG_HOME = join(home, 'xdg');
    claudeFile = join(home, 'xdg', 'Claude', 'claude_desktop_config.json');
    await mkdir(join(home, 'xdg', 'Claude'), { recursive: true });
    await writeFile(claudeFile, claudeText);
    await writeFile(join(home, 'servers.json'), '{ "servers": {} }\n');
  });
  afterEach(async () => {
    await core?.stop();
    core = undefined;
    if (savedXdg === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = savedXdg;
    await cleanup();
    for (const name of await vault.list()) await vault.delete(name);
  });

  it('after the import the plain key is proposed by name only, moved into the keychain, and the server gets it; the Claude file is never written', async () => {
    const c = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
    core = c;
    await c.start();

    const preview = await dispatch(c.handlers, 'previewImport', { client: 'claude-desktop' });
    expect(JSON.stringify(preview)).not.toContain(CANARY);
    expect(await dispatch(c.handlers, 'importServers', { client: 'claude-desktop', items: [{ name: 'brave', as: 'brave' }] })).toEqual({ ok: true, value: { added: ['brave'] } });

    const scan = await dispatch(c.handlers, 'findPlainSecrets', {});
    expect(scan).toEqual({
      ok: true,
      value: { path: join(home, 'servers.json'), proposals: [{ server: 'brave', field: 'env', key: 'BRAVE_API_KEY', secretName: 'brave-BRAVE_API_KEY' }] },
    });
    const items = (scan as { value: PlainSecretScan }).value.proposals;
    expect(await dispatch(c.handlers, 'movePlainSecrets', { items, backup: false })).toEqual({ ok: true, value: { moved: ['brave-BRAVE_API_KEY'] } });

    expect(await vault.get('brave-BRAVE_API_KEY')).toBe(CANARY);
    const servers = await readFile(join(home, 'servers.json'), 'utf8');
    expect(servers).not.toContain(CANARY);
    expect(JSON.parse(servers)).toMatchObject({ servers: { brave: { env: { BRAVE_API_KEY: '${secret:brave-BRAVE_API_KEY}' } } } });
    // Claude Desktop's file is the user's other client's: Switchboard reads it, never writes it.
    expect(await readFile(claudeFile, 'utf8')).toBe(claudeText);

    const result = await callByName(c.mcp, 'brave__get-env', {});
    const text = (result.content as { type: string; text?: string }[]).find((p) => p.type === 'text')?.text ?? '{}';
    expect((JSON.parse(text) as Record<string, string>).BRAVE_API_KEY).toBe(CANARY);
  });
});
