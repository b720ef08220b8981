import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginShellPath, mergePaths, resolveCommand } from '../../../src-main/core/mcp/login-path';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-path-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('resolveCommand', () => {
  it('finds a bare name on the given PATH', async () => {
    await writeFile(join(dir, 'my-server'), '#!/bin/sh\n');
    await chmod(join(dir, 'my-server'), 0o755);
    expect(await resolveCommand('my-server', `/nonexistent:${dir}`)).toEqual({ ok: true, path: join(dir, 'my-server') });
  });

  it('says which PATH was searched when a command is missing', async () => {
    expect(await resolveCommand('npx-nope', `/a/bin:${dir}`)).toEqual({ ok: false, message: `command not found: npx-nope (PATH searched: /a/bin:${dir})` });
  });

  it('resolves a relative path against the server cwd and reports a file that is not executable', async () => {
    await writeFile(join(dir, 'run.sh'), '#!/bin/sh\n');
    expect(await resolveCommand('./run.sh', '', dir)).toEqual({ ok: false, message: `command is not executable: ${join(dir, 'run.sh')}` });
    await chmod(join(dir, 'run.sh'), 0o755);
    expect(await resolveCommand('./run.sh', '', dir)).toEqual({ ok: true, path: join(dir, 'run.sh') });
    expect(await resolveCommand('/no/such/bin', '')).toEqual({ ok: false, message: 'command not found: /no/such/bin' });
  });
});

describe('login shell PATH', () => {
  it('merges PATHs with the first occurrence winning', () => {
    expect(mergePaths('/a:/b', '/b:/c::')).toBe('/a:/b:/c');
  });

  it('reads the login shell PATH once and keeps this process PATH entries', async () => {
    const first = loginShellPath();
    expect(loginShellPath()).toBe(first);
    const path = await first;
    for (const dirEntry of (process.env.PATH ?? '').split(':').filter(Boolean)) expect(path.split(':')).toContain(dirEntry);
  });
});
