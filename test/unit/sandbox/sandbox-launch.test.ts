import { existsSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { normalizeSandbox } from '../../../src-main/core/config/sandbox-config';
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

describe('sandboxLaunch on Linux with allowedDomains', () => {
  const domains = normalizeSandbox({ network: { allowedDomains: ['api.github.com'] } });
  const linux = { ...options, home: '/nonexistent-home', dataHome: '/nonexistent-home/.config/Switchboard', required: false, platform: 'linux' as const, settings: domains };

  it('starts the server behind the bridge, in its own network namespace, with the proxy variables in its environment', async () => {
    const result = await sandboxLaunch({ command: '/usr/bin/node', args: ['server.js'], env: { HOME: '/nonexistent-home', PATH: '/usr/bin' } }, { ...linux, host: { execPath: '/usr/bin/node', electron: false, packaged: false } });
    if (!result.ok || result.mechanism !== 'bubblewrap') throw new Error('expected a bubblewrap launch');
    const network = result.network!;
    try {
      expect(result.launch.args).toContain('--unshare-net');
      expect(result.launch.args.slice(result.launch.args.indexOf('--'))).toEqual(['--', '/usr/bin/node', network.bridgePath, network.socketPath, '3128', '/usr/bin/node', 'server.js']);
      const proxy = 'http://127.0.0.1:3128';
      expect(result.launch.env).toEqual({
        HOME: '/nonexistent-home', PATH: '/usr/bin', TMPDIR: '/tmp', NODE_USE_ENV_PROXY: '1', NO_PROXY: '', no_proxy: '',
        HTTP_PROXY: proxy, http_proxy: proxy, HTTPS_PROXY: proxy, https_proxy: proxy, ALL_PROXY: 'socks5h://127.0.0.1:3128', all_proxy: 'socks5h://127.0.0.1:3128',
        npm_config_proxy: proxy, npm_config_https_proxy: proxy,
      });
      // Private to this user, with the bridge in it; nothing listens until the server starts.
      expect(statSync(network.folder).mode & 0o777).toBe(0o700);
      expect(readFileSync(network.bridgePath, 'utf8')).toContain("import net from 'node:net';");
      expect(existsSync(network.socketPath)).toBe(false);
    } finally {
      await network.close();
    }
    expect(existsSync(network.folder)).toBe(false);
  });

  it('does not start a packaged app\'s server when no Node can run the bridge, and says why', async () => {
    const result = await sandboxLaunch({ command: '/usr/bin/node', args: [], env: { HOME: '/nonexistent-home', PATH: '/nonexistent-bin' } }, { ...linux, host: { execPath: '/opt/Switchboard/switchboard', electron: true, packaged: true } });
    expect(result).toEqual({ ok: false, message: expect.stringContaining('needs Node (node on the PATH)') });
  });
});
