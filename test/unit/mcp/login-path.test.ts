import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginShellPath, mergePaths, resolveCommand, resolveOnLoginPath, shellPath } from '../../../src-main/core/mcp/login-path';

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
    expect(await resolveCommand('npx-nope', `/a/bin:${dir}`)).toEqual({ ok: false, message: `command not found: npx-nope (PATH searched: /a/bin:${dir})`, notOnPath: true });
  });

  it('resolves a relative path against the server cwd and reports a file that is not executable', async () => {
    await writeFile(join(dir, 'run.sh'), '#!/bin/sh\n');
    expect(await resolveCommand('./run.sh', '', dir)).toEqual({ ok: false, message: `command is not executable: ${join(dir, 'run.sh')}` });
    await chmod(join(dir, 'run.sh'), 0o755);
    expect(await resolveCommand('./run.sh', '', dir)).toEqual({ ok: true, path: join(dir, 'run.sh') });
    expect(await resolveCommand('/no/such/bin', '')).toEqual({ ok: false, message: 'command not found: /no/such/bin' });
  });

  it('names a whole command line in "command" as such, never as a path under the cwd (issue 23 item 2)', async () => {
    await writeFile(join(dir, 'npx'), '#!/bin/sh\n');
    await chmod(join(dir, 'npx'), 0o755);
    const whole = 'npx -y @modelcontextprotocol/server-memory';
    const expected = { ok: false, message: `command not found: "${whole}" is a whole command line; "command" takes only the program (npx), "args" the rest` };
    expect(await resolveCommand(whole, dir, '/srv/switchboard')).toEqual(expected);
    // A program that is missing too: still the line, not "/srv/switchboard/npxx -y @scope/…".
    expect(await resolveCommand('npxx -y @scope/pkg', dir, '/srv/switchboard')).toEqual({
      ok: false,
      message: 'command not found: "npxx -y @scope/pkg" is a whole command line; "command" takes only the program (npxx), "args" the rest',
    });
  });

  it('still runs a program whose path has spaces, and reports a missing one as a missing path', async () => {
    await writeFile(join(dir, 'My Server'), '#!/bin/sh\n');
    await chmod(join(dir, 'My Server'), 0o755);
    expect(await resolveCommand(join(dir, 'My Server'), '')).toEqual({ ok: true, path: join(dir, 'My Server') });
    expect(await resolveCommand(join(dir, 'No Such Server'), '')).toEqual({ ok: false, message: `command not found: ${join(dir, 'No Such Server')}` });
  });
});

async function ownNiceness(): Promise<number> {
  const { getPriority } = await import('node:os');
  return getPriority();
}

describe('resolveOnLoginPath', () => {
  it('looks a command missing from the given PATH up again on the fresh login PATH, and launches with that PATH', async () => {
    await writeFile(join(dir, 'new-tool'), '#!/bin/sh\n');
    await chmod(join(dir, 'new-tool'), 0o755);
    let freshReads = 0;
    const source = Object.assign(async () => '/usr/bin', { fresh: async () => (freshReads++, `${dir}:/usr/bin`) });
    expect(await resolveOnLoginPath('new-tool', source)).toEqual({ resolved: { ok: true, path: join(dir, 'new-tool') }, path: `${dir}:/usr/bin` });
    expect(await resolveOnLoginPath('sh', source)).toEqual({ resolved: { ok: true, path: '/usr/bin/sh' }, path: '/usr/bin' });
    expect(freshReads).toBe(1);
  });

  it('reports the PATH it searched last when the command is on neither', async () => {
    const source = Object.assign(async () => '/a', { fresh: async () => '/b' });
    expect(await resolveOnLoginPath('nope-tool', source)).toEqual({ resolved: { ok: false, message: 'command not found: nope-tool (PATH searched: /b)', notOnPath: true }, path: '/b' });
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

  it('reads in the background at low priority, so the shell startup files yield to the app', async () => {
    const shell = await fakeShell('nice-sh', `PATH="/niceness-$(nice):/usr/bin" exec /bin/bash -c "$2"`);
    expect(await shellPath(20_000, shell)).toBe(`/niceness-${await ownNiceness()}:/usr/bin`);
    expect(await shellPath(20_000, shell, true)).toBe(`/niceness-${Math.min(19, (await ownNiceness()) + 10)}:/usr/bin`);
  });

  it('reads a real login shell', async () => {
    expect((await shellPath(20_000, '/bin/bash')).split(':')).toContain('/usr/bin');
  });
});
