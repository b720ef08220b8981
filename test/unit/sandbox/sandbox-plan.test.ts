import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalizeSandbox } from '../../../src-main/core/config/sandbox-config';
import { bwrapArgs } from '../../../src-main/core/sandbox/bwrap-args';
import { buildSandboxPlan } from '../../../src-main/core/sandbox/sandbox-plan';

const home = mkdtempSync(join(tmpdir(), 'sandbox-plan-'));
const dataHome = join(home, '.config', 'Switchboard');
mkdirSync(dataHome, { recursive: true });
mkdirSync(join(home, 'projects'));
mkdirSync(join(home, '.npm'));
const plan = (args: string[], settings = normalizeSandbox(undefined), cwd?: string) =>
  buildSandboxPlan({ command: '/usr/bin/node', args, settings, home, dataHome, ...(cwd ? { cwd } : {}) });

describe('buildSandboxPlan', () => {
  it('hides the home folders, the data home and /run/user, and gives no network by default', () => {
    const p = plan([]);
    expect(p.hidden).toEqual(expect.arrayContaining([home, userInfo().homedir, dataHome, '/run/user']));
    expect(p.network).toEqual({ kind: 'none' });
  });

  it('grants a folder the person named in the arguments, and shows it as an argument grant', () => {
    expect(plan([join(home, 'projects')]).grants).toContainEqual({ path: join(home, 'projects'), access: 'write', from: 'argument' });
  });

  it('refuses argument folders that would open a secret place: /, the home folder, the data home', () => {
    mkdirSync(join(dataHome, 'cache'), { recursive: true });
    const p = plan(['/', home, dataHome, join(dataHome, 'cache'), '--root=/']);
    expect(p.grants.filter((g) => g.from === 'argument')).toEqual([]);
    expect(p.refusedArguments).toEqual(['/', home, dataHome, join(dataHome, 'cache')]);
  });

  it('never opens the data home, not even a setting that names a folder inside it', () => {
    const p = plan([], normalizeSandbox({ filesystem: { allowWrite: [join(dataHome, 'cache')], allowRead: ['~/.config/Switchboard/servers.json'] } }));
    expect(p.grants.filter((g) => g.from === 'setting')).toEqual([]);
  });

  it('binds toolchain folders back read-only (npx needs ~/.npm) but never the data home', () => {
    const p = plan([], normalizeSandbox(undefined), home);
    expect(p.grants).toContainEqual({ path: join(home, '.npm'), access: 'read', from: 'toolchain' });
    expect(p.grants.some((g) => g.path === home)).toBe(false);
  });

  it('takes allowWrite, denyRead and denyWrite from the settings with ~ expanded, and domains as the network', () => {
    const p = plan([], normalizeSandbox({ filesystem: { allowWrite: ['~/projects'], denyWrite: ['~/projects/.git'], denyRead: ['~/projects/secret'] }, network: { allowedDomains: ['api.github.com'] } }));
    expect(p.grants).toContainEqual({ path: join(home, 'projects'), access: 'write', from: 'setting' });
    expect(p.denyWrite).toEqual([join(home, 'projects', '.git')]);
    expect(p.denyRead).toEqual([join(home, 'projects', 'secret')]);
    expect(p.network).toEqual({ kind: 'domains', allowed: ['api.github.com'], denied: [] });
  });
});

describe('bwrapArgs', () => {
  it('hides first, binds grants back, then makes the hidden folders read-only, and runs the command without a shell', () => {
    writeFileSync(join(home, 'projects', 'a.txt'), 'x');
    const args = bwrapArgs(plan([join(home, 'projects')]), '/usr/bin/node', ['server.js', '$(id)'], undefined);
    const hide = args.indexOf(home);
    const bind = args.indexOf(join(home, 'projects'));
    const remount = args.lastIndexOf(home);
    expect(args[hide - 1]).toBe('--tmpfs');
    expect(args[bind - 1]).toBe('--bind');
    expect(args[remount - 1]).toBe('--remount-ro');
    expect(hide).toBeLessThan(bind);
    expect(bind).toBeLessThan(remount);
    expect(args).toContain('--unshare-net');
    expect(args.slice(args.indexOf('--'))).toEqual(['--', '/usr/bin/node', 'server.js', '$(id)']);
  });

  it('gives the server a network namespace of its own even with domains granted, its proxy folder bound in read-only', () => {
    const args = bwrapArgs(plan([], normalizeSandbox({ network: { allowedDomains: ['example.com'] } })), '/usr/bin/node', [], undefined, '/tmp/switchboard-net-x');
    expect(args).toContain('--unshare-net');
    const bind = args.lastIndexOf('/tmp/switchboard-net-x');
    expect(args.slice(bind - 2, bind + 1)).toEqual(['--ro-bind', '/tmp/switchboard-net-x', '/tmp/switchboard-net-x']);
    // After the private /tmp is mounted, or the tmpfs would cover it.
    expect(bind).toBeGreaterThan(args.indexOf('/tmp'));
  });
});

describe('bwrapArgs with a home inside the data home', () => {
  it('creates the outer hidden folder first and does not remount what the sealed data home covers', () => {
    const person = join(dataHome, 'person');
    mkdirSync(person, { recursive: true });
    const nested = buildSandboxPlan({ command: '/usr/bin/node', args: [], settings: normalizeSandbox(undefined), home: person, dataHome });
    const args = bwrapArgs(nested, '/usr/bin/node', [], undefined);
    const tmpfs = args.flatMap((a, i) => (a === '--tmpfs' ? [args[i + 1]] : []));
    expect(tmpfs.indexOf(dataHome)).toBeLessThan(tmpfs.indexOf(person));
    expect(args.flatMap((a, i) => (a === '--remount-ro' ? [args[i + 1]] : []))).not.toContain(person);
  });
});

describe('roots as grants', () => {
  it('grants the project folders the person opened, shown as roots, but never a root that holds a secret place', () => {
    mkdirSync(join(home, 'work'), { recursive: true });
    const p = buildSandboxPlan({ command: '/usr/bin/node', args: [], settings: normalizeSandbox(undefined), home, dataHome, roots: [join(home, 'work'), home, dataHome] });
    expect(p.grants.filter((g) => g.from === 'root')).toEqual([{ path: join(home, 'work'), access: 'write', from: 'root' }]);
    expect(p.refusedArguments).toEqual([home, dataHome]);
  });
});
