import { describe, expect, it } from 'vitest';
import { sandboxLaunch, WINDOWS_NOT_SANDBOXED } from '../../../src-main/core/sandbox/sandbox-launch';

const launch = { command: 'C:\\Program Files\\nodejs\\node.exe', args: ['server.js'], env: { PATH: 'C:\\Windows' } };
const options = { settings: undefined, home: 'C:\\Users\\ada', dataHome: 'C:\\Users\\ada\\AppData\\Roaming\\Switchboard' };

describe('sandboxLaunch on Windows', () => {
  it('runs the server as before and says plainly that it is not sandboxed', async () => {
    const result = await sandboxLaunch(launch, { ...options, required: false, platform: 'win32' });
    expect(result).toEqual({ ok: true, launch, plan: undefined, mechanism: 'none', note: WINDOWS_NOT_SANDBOXED });
    expect(WINDOWS_NOT_SANDBOXED).toBe('not sandboxed: Windows has no sandbox for local servers yet');
  });

  it('does not start it when the organization requires the sandbox', async () => {
    const result = await sandboxLaunch(launch, { ...options, required: true, platform: 'win32' });
    expect(result).toEqual({ ok: false, message: expect.stringContaining('set by your organization') });
  });
});

describe('sandboxLaunch on Linux', () => {
  it('wraps the same argv in bubblewrap, with no shell in between', async () => {
    const result = await sandboxLaunch({ command: '/usr/bin/node', args: ['a b', '$(id)'], env: { HOME: '/nonexistent-home' } }, { ...options, home: '/nonexistent-home', dataHome: '/nonexistent-home/.config/Switchboard', required: false, platform: 'linux' });
    expect(result.ok && result.mechanism).toBe('bubblewrap');
    if (!result.ok) return;
    expect(result.launch.command).toMatch(/bwrap$/);
    expect(result.launch.args.slice(-4)).toEqual(['--', '/usr/bin/node', 'a b', '$(id)']);
    expect(result.launch.env).toEqual({ HOME: '/nonexistent-home', TMPDIR: '/tmp' });
  });
});
