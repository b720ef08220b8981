import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readPolicySync } from '../../../src-main/core/policy/policy-file';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'policy-file-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

describe('readPolicySync', () => {
  it('is never stale: each change to the file, its removal and a broken rewrite are seen on the next read', async () => {
    const path = join(folder, 'policy.json');
    expect(readPolicySync(path)).toEqual({ kind: 'none' });
    await writeFile(path, JSON.stringify({ installs: 'off' }));
    expect(readPolicySync(path)).toMatchObject({ kind: 'active', policy: { installs: 'off' } });
    // Written again at once with the same size: still read again.
    await writeFile(path, JSON.stringify({ installs: 'xyz' }));
    expect(readPolicySync(path)).toMatchObject({ kind: 'broken' });
    await writeFile(path, JSON.stringify({ sandbox: 'required' }));
    expect(readPolicySync(path)).toMatchObject({ kind: 'active', policy: { sandbox: 'required' } });
    await unlink(path);
    expect(readPolicySync(path)).toEqual({ kind: 'none' });
    await writeFile(path, '{ not json');
    expect(readPolicySync(path)).toMatchObject({ kind: 'broken', path });
  });
});
