import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { keychainServiceFor, KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { secretHandlers } from '../../../src-main/core/secrets/secret-handlers';

const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const skipReason = hasKeychain ? '' : ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]';
// A service of its own per run, so the tests never touch a real "Switchboard" entry.
const service = `Switchboard-test-${randomBytes(4).toString('hex')}`;

describe.skipIf(!hasKeychain)(`KeytarVault on the real OS keychain${skipReason}`, () => {
  const vault = new KeytarVault(service);

  afterAll(async () => {
    for (const name of await vault.list()) await vault.delete(name);
  });

  it('stores, reads, replaces, lists and deletes a secret', async () => {
    await vault.set('GITHUB_TOKEN', 'first-value');
    expect(await vault.get('GITHUB_TOKEN')).toBe('first-value');
    await vault.set('GITHUB_TOKEN', 'second-value');
    expect(await vault.get('GITHUB_TOKEN')).toBe('second-value');
    await vault.set('OTHER', 'kept');
    expect(await vault.list()).toEqual(['GITHUB_TOKEN', 'OTHER']);
    expect(await vault.delete('GITHUB_TOKEN')).toBe(true);
    expect(await vault.get('GITHUB_TOKEN')).toBeUndefined();
    expect(await vault.delete('GITHUB_TOKEN')).toBe(false);
    expect(await vault.get('OTHER')).toBe('kept');
  });

  it('lists only user secrets through the handlers, never oauth entries or values', async () => {
    const handlers = secretHandlers(vault);
    await vault.set('oauth/tokens/abc', 'token-json');
    await handlers.setSecret({ name: 'API_KEY', value: 'v1' });
    const listed = await handlers.listSecrets({});
    expect(listed.names).toContain('API_KEY');
    expect(listed.names).not.toContain('oauth/tokens/abc');
    expect(JSON.stringify(listed)).not.toContain('v1');
  });

  it('refuses a bad secret name with the exact rule and leaves existing secrets alone', async () => {
    const handlers = secretHandlers(vault);
    await vault.set('KEEP_ME', 'still-here');
    const before = await vault.list();
    for (const bad of ['', 'has space', 'oauth/tokens/x', 'x'.repeat(129), 'semi;colon']) {
      await expect(handlers.setSecret({ name: bad, value: 'v' })).rejects.toThrow(
        `secret name ${JSON.stringify(bad)} is not valid: a secret name is 1 to 128 letters, digits, "_", "." or "-"`,
      );
    }
    await expect(handlers.deleteSecret({ name: 'oauth/tokens/abc' })).rejects.toThrow(
      'secret name "oauth/tokens/abc" is not valid: a secret name is 1 to 128 letters, digits, "_", "." or "-"',
    );
    await expect(handlers.deleteSecret({ name: 'NEVER_SET' })).rejects.toThrow('no secret named NEVER_SET in the OS keychain');
    expect(await vault.list()).toEqual(before);
    expect(await vault.get('KEEP_ME')).toBe('still-here');
    expect(await vault.get('oauth/tokens/abc')).toBe('token-json');
  });
});

describe.skipIf(!hasKeychain)(`one keychain service per profile${skipReason}`, () => {
  it('names the default profile "Switchboard" and a SWITCHBOARD_HOME profile after its home', () => {
    expect(keychainServiceFor({})).toBe('Switchboard');
    expect(keychainServiceFor({ SWITCHBOARD_HOME: '/p/work' })).toBe('Switchboard (/p/work)');
  });

  it("keeps two profiles' secrets apart in the real keychain", async () => {
    const tag = randomBytes(4).toString('hex');
    const work = new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: `/tmp/profile-work-${tag}` }));
    const home = new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: `/tmp/profile-home-${tag}` }));
    try {
      await work.set('GITHUB_TOKEN', 'work-value');
      await home.set('GITHUB_TOKEN', 'home-value');
      expect(await work.get('GITHUB_TOKEN')).toBe('work-value');
      expect(await home.get('GITHUB_TOKEN')).toBe('home-value');
      await work.delete('GITHUB_TOKEN');
      expect(await home.list()).toEqual(['GITHUB_TOKEN']);
    } finally {
      await work.delete('GITHUB_TOKEN');
      await home.delete('GITHUB_TOKEN');
    }
  });
});

describe('KeytarVault without a keychain', () => {
  const home = mkdtempSync(join(tmpdir(), 'switchboard-nokeychain-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('fails with KeychainUnavailableError naming what is missing and writes no file', async () => {
    const value = `canary-${randomBytes(8).toString('hex')}`;
    const env: NodeJS.ProcessEnv = { ...process.env, SWITCHBOARD_HOME: home, SWITCHBOARD_TEST_SERVICE: service, SWITCHBOARD_TEST_VALUE: value };
    // No D-Bus session and no X11 display to autolaunch one: no Secret Service at all.
    delete env.DBUS_SESSION_BUS_ADDRESS;
    delete env.DISPLAY;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'no-keychain-child.ts')], { env });
    const unavailable = {
      ok: false,
      error: {
        code: 'unavailable',
        message:
          'the OS keychain is not available (Cannot autolaunch D-Bus without X11 $DISPLAY); on Linux, Switchboard needs a Secret Service such as gnome-keyring or KWallet running and unlocked',
      },
    };
    expect(JSON.parse(stdout)).toEqual({ home, results: [unavailable, unavailable] });
    expect(stdout).not.toContain(value);
    expect(readdirSync(home, { recursive: true })).toEqual([]);
  });
});
