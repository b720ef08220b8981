import { mkdir, mkdtemp, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPolicySync } from '../../../src-main/core/policy/policy-file';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'policy-file-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

/**
 * A change is seen once the OS has reported it (a watch, not a stat per read): wait for it, never for a fixed time.
 * WATCH_ONLY turns the periodic stat off, so only the watch can see the change.
 */
const WATCH_ONLY: { recheckMs?: number } = { recheckMs: Infinity };
const seen = (path: string, options = WATCH_ONLY) => expect.poll(() => readPolicySync(path, options), { timeout: 10_000 });

describe('readPolicySync', () => {
  it('is never stale: each change to the file, its removal and a broken rewrite are seen on the next read', async () => {
    const path = join(folder, 'policy.json');
    expect(readPolicySync(path)).toEqual({ kind: 'none' });
    await writeFile(path, JSON.stringify({ installs: 'off' }));
    await seen(path).toMatchObject({ kind: 'active', policy: { installs: 'off' } });
    // Written again at once with the same size: still read again.
    await writeFile(path, JSON.stringify({ installs: 'xyz' }));
    await seen(path).toMatchObject({ kind: 'broken' });
    await writeFile(path, JSON.stringify({ sandbox: 'required' }));
    await seen(path).toMatchObject({ kind: 'active', policy: { sandbox: 'required' } });
    await unlink(path);
    await seen(path).toEqual({ kind: 'none' });
    await writeFile(path, '{ not json');
    await seen(path).toMatchObject({ kind: 'broken', path });
  });

  it('keeps a broken file broken on every read until it is fixed (fail closed)', async () => {
    const path = join(folder, 'policy.json');
    await writeFile(path, '{ "approvals": ');
    for (let i = 0; i < 3; i++) expect(readPolicySync(path)).toMatchObject({ kind: 'broken', path });
    await writeFile(path, JSON.stringify({ approvals: 'always-ask' }));
    await seen(path).toMatchObject({ kind: 'active', policy: { approvals: 'always-ask' } });
  });

  it('sees a policy whose folder did not exist at the first read, and one replaced by rename as editors and installers write', async () => {
    const path = join(folder, 'etc', 'switchboard', 'policy.json');
    expect(readPolicySync(path)).toEqual({ kind: 'none' });
    await mkdir(join(folder, 'etc', 'switchboard'), { recursive: true });
    await writeFile(path, JSON.stringify({ installs: 'off' }));
    await seen(path).toMatchObject({ kind: 'active', policy: { installs: 'off' } });
    await writeFile(`${path}.tmp`, JSON.stringify({ installs: 'registry-only' }));
    await rename(`${path}.tmp`, path);
    await seen(path).toMatchObject({ kind: 'active', policy: { installs: 'registry-only' } });
  });

  it('sees a policy written into a folder that was removed and made again while it held none', async () => {
    const dir = join(folder, 'switchboard');
    const path = join(dir, 'policy.json');
    await mkdir(dir);
    await writeFile(join(dir, 'other.json'), '{}');
    expect(readPolicySync(path)).toEqual({ kind: 'none' });
    await rm(dir, { recursive: true });
    await mkdir(dir);
    await writeFile(path, JSON.stringify({ approvals: 'always-ask' }));
    await seen(path).toMatchObject({ kind: 'active', policy: { approvals: 'always-ask' } });
  });

  it('sees a new policy in a folder removed and made again, and in one put where the folder above was renamed away', async () => {
    const dir = join(folder, 'etc', 'switchboard');
    const path = join(dir, 'policy.json');
    await mkdir(dir, { recursive: true });
    await writeFile(path, JSON.stringify({ installs: 'off' }));
    expect(readPolicySync(path)).toMatchObject({ kind: 'active', policy: { installs: 'off' } });
    await rm(dir, { recursive: true });
    await mkdir(dir);
    await writeFile(path, JSON.stringify({ approvals: 'always-ask' }));
    await seen(path).toMatchObject({ kind: 'active', policy: { approvals: 'always-ask' } });
    // The watched folder itself hears nothing of its parent's rename: the periodic stat finds the new file.
    await rename(join(folder, 'etc'), join(folder, 'etc.old'));
    await mkdir(dir, { recursive: true });
    await writeFile(path, JSON.stringify({ sandbox: 'required' }));
    await seen(path, {}).toMatchObject({ kind: 'active', policy: { sandbox: 'required' } });
  });

  it('reads a policy that is a symbolic link through to its target on every read, wherever the target changes', async () => {
    const target = join(folder, 'managed', 'policy.json');
    await mkdir(join(folder, 'managed'));
    await mkdir(join(folder, 'etc'));
    const path = join(folder, 'etc', 'policy.json');
    await writeFile(target, JSON.stringify({ installs: 'off' }));
    await symlink(target, path);
    expect(readPolicySync(path)).toMatchObject({ kind: 'active', policy: { installs: 'off' } });
    // The link's folder sees nothing of this: the next read must still see it, with no wait.
    await writeFile(target, JSON.stringify({ approvals: 'always-ask' }));
    expect(readPolicySync(path, WATCH_ONLY)).toMatchObject({ kind: 'active', policy: { approvals: 'always-ask' } });
  });
});
