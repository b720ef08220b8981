import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginShellPath, mergePaths, resolveCommand, shellPath } from '../../../src-main/core/mcp/login-path';

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

  /** A stand-in login shell: prints what startup files might (noise, colours), then runs the command it is given with `path` set. */
  async function fakeShell(name: string, body: string): Promise<string> {
    const file = join(dir, name);
    await writeFile(file, `#!/bin/sh\n${body}\n`);
    await chmod(file, 0o755);
    return file;
  }

  it('reads PATH as the login shell sets it, leaving out what its startup files print', async () => {
    const shell = await fakeShell('noisy-sh', `printf '\\033[31mWelcome!\\033[0m PATH=/not/this\\n'; [ "$1" = -ilc ] || exit 9; PATH=/from/login:/usr/bin exec /bin/bash -c "$2"`);
    expect(await shellPath(20_000, shell)).toBe('/from/login:/usr/bin');
  });

  it('is empty when the shell fails or outlives the timeout (this process PATH is used then)', async () => {
    expect(await shellPath(20_000, await fakeShell('failing-sh', 'exit 1'))).toBe('');
    expect(await shellPath(1_000, await fakeShell('hanging-sh', 'exec sleep 60'))).toBe('');
  });

  it('reads a real login shell', async () => {
    expect((await shellPath(20_000, '/bin/bash')).split(':')).toContain('/usr/bin');
  });
});
