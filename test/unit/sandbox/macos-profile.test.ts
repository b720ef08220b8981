import { describe, expect, it } from 'vitest';
import { macosProfile } from '../../../src-main/core/sandbox/macos-profile';
import type { SandboxPlan } from '../../../src-main/core/sandbox/sandbox-plan';

const plan: SandboxPlan = {
  hidden: ['/Users/ada', '/Users/ada/Library/Application Support/Switchboard'],
  sealed: ['/Users/ada/Library/Application Support/Switchboard'],
  denyRead: [],
  grants: [
    { path: '/Users/ada/.npm', access: 'read', from: 'toolchain' },
    { path: '/Users/ada/projects', access: 'write', from: 'argument' },
  ],
  denyWrite: ['/Users/ada/projects/.git'],
  network: { kind: 'none' },
  refusedArguments: [],
};

describe('macosProfile (sandbox-exec)', () => {
  it('denies by default, hides the home, re-opens grants after it, and denies the network and the keychain', () => {
    const profile = macosProfile(plan, '/private/tmp/sb-1');
    const lines = profile.trim().split('\n');
    expect(lines.slice(0, 2)).toEqual(['(version 1)', '(deny default)']);
    const hide = lines.indexOf('(deny file-read* (subpath "/Users/ada"))');
    const reopen = lines.indexOf('(allow file-read* (subpath "/Users/ada/.npm"))');
    expect(hide).toBeGreaterThan(lines.indexOf('(allow file-read*)'));
    expect(reopen).toBeGreaterThan(hide);
    expect(lines).toContain('(allow file-write* (subpath "/Users/ada/projects"))');
    expect(lines.indexOf('(deny file-write* (subpath "/Users/ada/projects/.git"))')).toBeGreaterThan(lines.indexOf('(allow file-write* (subpath "/Users/ada/projects"))'));
    expect(lines).toContain('(allow file-write* (subpath "/private/tmp/sb-1") (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr"))');
    expect(lines).toContain('(deny network*)');
    expect(lines.indexOf('(deny file-read* file-write* (subpath "/Users/ada/Library/Application Support/Switchboard"))')).toBeGreaterThan(reopen);
    expect(profile).toContain('(global-name "com.apple.SecurityServer")');
    expect(profile).not.toContain('allow network');
  });

  it('quotes a path so it cannot close the rule and add its own', () => {
    const hostile = { ...plan, grants: [{ path: '/Users/ada/x")) (allow default) ("', access: 'read' as const, from: 'setting' as const }] };
    const profile = macosProfile(hostile, '/tmp/t');
    expect(profile).toContain('(allow file-read* (subpath "/Users/ada/x\\")) (allow default) (\\""))');
    expect(profile.split('\n')).not.toContain('(allow default)');
  });
});

describe('macosProfile with allowedDomains', () => {
  const withDomains: SandboxPlan = { ...plan, network: { kind: 'domains', allowed: ['api.github.com'], denied: [] } };

  it('opens only the filtering proxy\'s port on loopback, after denying the network', () => {
    const lines = macosProfile(withDomains, '/tmp/t', 51234).trim().split('\n');
    expect(lines.filter((line) => line.includes('network'))).toEqual(['(deny network*)', '(allow network-outbound (remote ip "localhost:51234"))']);
  });

  it('gives no network when there is no proxy to reach', () => {
    const lines = macosProfile(withDomains, '/tmp/t').trim().split('\n');
    expect(lines.filter((line) => line.includes('network'))).toEqual(['(deny network*)']);
  });
});
