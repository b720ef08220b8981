import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { AppFailure } from '../../../src-main/core/app-error';
import { SystemOpener, type SpawnFn } from '../../../src-main/host/system-opener';

interface Recorded {
  command: string;
  args: readonly string[];
  options: SpawnOptions;
  child: ChildProcess;
}

/** The spawn seam: records the call, then runs a real, harmless process in place of the browser opener. */
function recorder(runInstead: (options: SpawnOptions) => ChildProcess = (options) => spawn(process.execPath, ['-e', ''], options)) {
  const calls: Recorded[] = [];
  const fn: SpawnFn = (command, args, options) => {
    const child = runInstead(options);
    calls.push({ command, args, options, child });
    return child;
  };
  return { calls, fn };
}

async function refusal(promise: Promise<unknown>): Promise<AppFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppFailure)) throw new Error(`expected an AppFailure, got ${String(error)}`);
  return error;
}

describe('SystemOpener', () => {
  it.each([
    ['javascript:alert(1)', 'the scheme "javascript" is not allowed (only https, or http to loopback)'],
    ['file:///etc/passwd', 'the scheme "file" is not allowed (only https, or http to loopback)'],
    ['data:text/html,hi', 'the scheme "data" is not allowed (only https, or http to loopback)'],
    ['smb://attacker/share', 'the scheme "smb" is not allowed (only https, or http to loopback)'],
    ['vscode://ext/install', 'the scheme "vscode" is not allowed (only https, or http to loopback)'],
    ['http://example.com/', 'plain http is allowed only to this computer (loopback)'],
    ['https://a.com/$(calc.exe)', 'the URL contains shell syntax'],
    ['https://a.com/ --new-window', 'the URL contains characters a URL may not hold'],
    ['', 'the URL is empty'],
  ])('refuses %j before anything is spawned', async (url, reason) => {
    const { calls, fn } = recorder();
    const error = await refusal(new SystemOpener(fn, 'linux').open(url));
    expect(error.code).toBe('invalid_input');
    expect(error.message).toBe(`refused to open "${url}": ${reason}`);
    expect(calls).toEqual([]);
  });

  it('clips a long refused URL in the message', async () => {
    const { calls, fn } = recorder();
    const url = `javascript:${'a'.repeat(300)}`;
    const error = await refusal(new SystemOpener(fn, 'linux').open(url));
    expect(error.message).toBe(`refused to open "${url.slice(0, 200)}…": the scheme "javascript" is not allowed (only https, or http to loopback)`);
    expect(calls).toEqual([]);
  });

  it.each([
    ['linux', 'xdg-open'],
    ['freebsd', 'xdg-open'],
    ['darwin', 'open'],
    ['win32', 'explorer.exe'],
  ] as const)('on %s runs %s with the URL as one argument, no shell, detached', async (platform, command) => {
    const { calls, fn } = recorder();
    await new SystemOpener(fn, platform).open('https://example.com/authorize?a=1&b=2');
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.command).toBe(command);
    expect(call!.args).toEqual(['https://example.com/authorize?a=1&b=2']);
    expect(call!.options).toMatchObject({ shell: false, detached: true, stdio: 'ignore' });
    await new Promise((resolve) => call!.child.once('exit', resolve));
  });

  it('passes the normalised URL the policy returned', async () => {
    const { calls, fn } = recorder();
    await new SystemOpener(fn, 'linux').open('http://LOCALHOST:8080');
    expect(calls[0]!.args).toEqual(['http://localhost:8080/']);
    await new Promise((resolve) => calls[0]!.child.once('exit', resolve));
  });

  it('reports a missing opener program by name', async () => {
    const { calls, fn } = recorder((options) => spawn('/nonexistent/switchboard-opener', [], options));
    const error = await refusal(new SystemOpener(fn, 'linux').open('https://example.com/'));
    expect(error.code).toBe('unavailable');
    expect(error.message).toBe('could not open https://example.com/ in the browser: xdg-open was not found');
    expect(calls).toHaveLength(1);
  });
});
