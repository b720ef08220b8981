import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergePaths } from '../../../src-main/core/mcp/login-path';
import { savedLoginPath } from '../../../src-main/core/mcp/saved-login-path';

let dir: string;
let file: string;
const own = process.env.PATH ?? '';
/** What the source answers: the shell's PATH, then this process's entries it lacks. */
const withOwn = (fromShell: string) => mergePaths(fromShell, own);
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'switchboard-saved-path-'));
  file = join(dir, 'cache', 'login-path.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** A stand-in for the login shell: answers the PATHs given in turn and records how it was asked. */
function shellAnswering(...answers: string[]) {
  const reads: boolean[] = [];
  return { reads, read: async (background: boolean) => (reads.push(background), answers[reads.length - 1] ?? '') };
}

describe('savedLoginPath', () => {
  it('reads the login shell on the first start, waits for it, and keeps it for the next', async () => {
    const shell = shellAnswering('/first/bin');
    const source = savedLoginPath({ file, read: shell.read });
    expect(await source()).toBe(withOwn('/first/bin'));
    expect(shell.reads).toEqual([false]);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ shell: process.env.SHELL ?? '', path: '/first/bin' });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('starts with the kept PATH at once and reads the shell again later at low priority, taking its answer', async () => {
    await savedLoginPath({ file, read: shellAnswering('/kept/bin').read })();
    const shell = shellAnswering('/changed/bin');
    const source = savedLoginPath({ file, read: shell.read, refreshAfterMs: 50 });
    expect(await source()).toBe(withOwn('/kept/bin'));
    expect(shell.reads).toEqual([]);
    await expect.poll(() => shell.reads).toEqual([true]);
    await expect.poll(() => source()).toBe(withOwn('/changed/bin'));
    expect(JSON.parse(await readFile(file, 'utf8')).path).toBe('/changed/bin');
  });

  it('reads the shell now when asked for a fresh PATH, once', async () => {
    await savedLoginPath({ file, read: shellAnswering('/kept/bin').read })();
    const shell = shellAnswering('/new/bin');
    const source = savedLoginPath({ file, read: shell.read, refreshAfterMs: 60_000 });
    expect(await source()).toBe(withOwn('/kept/bin'));
    expect(await source.fresh!()).toBe(withOwn('/new/bin'));
    expect(await source.fresh!()).toBe(withOwn('/new/bin'));
    expect(shell.reads).toEqual([false]);
    expect(await source()).toBe(withOwn('/new/bin'));
  });

  it('keeps the saved PATH when the shell fails, and ignores one saved for another shell or unreadable', async () => {
    await savedLoginPath({ file, read: shellAnswering('/kept/bin').read })();
    const failing = savedLoginPath({ file, read: shellAnswering('').read });
    expect(await failing.fresh!()).toBe(withOwn('/kept/bin'));
    expect(JSON.parse(await readFile(file, 'utf8')).path).toBe('/kept/bin');

    await writeFile(file, JSON.stringify({ shell: '/bin/another-shell', path: '/other/bin' }));
    const otherShell = shellAnswering('/mine/bin');
    expect(await savedLoginPath({ file, read: otherShell.read })()).toBe(withOwn('/mine/bin'));
    expect(otherShell.reads).toEqual([false]);

    await writeFile(file, '{ not json');
    const broken = shellAnswering('/again/bin');
    expect(await savedLoginPath({ file, read: broken.read })()).toBe(withOwn('/again/bin'));
    expect(broken.reads).toEqual([false]);
  });
});
