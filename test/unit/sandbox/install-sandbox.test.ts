import { describe, expect, it } from 'vitest';
import { installSandboxView, withInstallSandbox } from '../../../src-main/core/sandbox/install-sandbox';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';
import type { PolicyState } from '../../../src-main/core/policy/policy-file';

const SOURCE = { path: '/h/servers.json', origin: 'switchboard' as const, userWritten: true };
const NONE: PolicyState = { kind: 'none' };
const REQUIRED: PolicyState = { kind: 'active', path: '/etc/p.json', policy: { sandbox: 'required' } };
const installed = (entry: Record<string, unknown>, origin: Parameters<typeof installSandboxView>[1], wanted?: boolean, policy: PolicyState = NONE) =>
  withInstallSandbox(entry, installSandboxView(entry, origin, policy), wanted);

describe('withInstallSandbox (servers installed from the catalog or the registry run sandboxed)', () => {
  it('gives a catalog server the grants its entry declares', () => {
    const entry = installed({ command: 'npx', args: ['-y', '@brave/brave-search-mcp-server'], env: {} }, { catalog: 'brave-search' });
    expect(entry).toMatchObject({ sandboxEnabled: true, sandbox: { network: { allowedDomains: ['registry.npmjs.org', 'api.search.brave.com'] } } });
    expect(validateServerEntry('brave', entry, SOURCE).ok).toBe(true);
  });

  it('starts a catalog server whose purpose a sandbox would refuse switched off, written as such (playwright drives a browser)', () => {
    const entry = { command: 'npx', args: ['-y', '@playwright/mcp'], env: {} };
    expect(installSandboxView(entry, { catalog: 'playwright' }, NONE)).toMatchObject({ on: false, setByOrganization: false, note: expect.any(String) });
    expect(installed(entry, { catalog: 'playwright' })).toEqual({ ...entry, sandboxEnabled: false });
    expect(installed(entry, { catalog: 'playwright' }, true)).toEqual({ ...entry, sandboxEnabled: true });
  });

  it('gives a registry package or a linked command the hosts its runner fetches from, and nothing else', () => {
    expect(installed({ command: 'uvx', args: ['mcp-server-x'], env: {} }, { registry: 'io.github.x/y' })).toEqual({
      command: 'uvx',
      args: ['mcp-server-x'],
      env: {},
      sandboxEnabled: true,
      sandbox: { network: { allowedDomains: ['pypi.org', 'files.pythonhosted.org'] } },
    });
    expect(installed({ command: 'node', args: ['/srv/x.js'] }, { link: true })).toEqual({ command: 'node', args: ['/srv/x.js'], sandboxEnabled: true });
  });

  it('writes sandboxEnabled: false and no grants when the person switches it off', () => {
    expect(installed({ command: 'npx', args: ['-y', 'x'] }, { registry: 'a/b' }, false)).toEqual({ command: 'npx', args: ['-y', 'x'], sandboxEnabled: false });
  });

  it('locks the switch on when the policy requires the sandbox, and refuses an install that turns it off (SECURITY X2)', () => {
    const entry = { command: 'npx', args: ['-y', '@playwright/mcp'] };
    expect(installSandboxView(entry, { catalog: 'playwright' }, REQUIRED)).toMatchObject({ on: true, setByOrganization: true });
    expect(installed(entry, { catalog: 'playwright' }, undefined, REQUIRED)).toMatchObject({ sandboxEnabled: true });
    expect(() => installed({ command: 'npx', args: ['x'] }, { registry: 'a/b' }, false, REQUIRED)).toThrow(/must run sandboxed \(set by your organization\)/);
    const broken: PolicyState = { kind: 'broken', path: '/etc/p.json', reason: 'bad JSON' };
    expect(() => installed({ command: 'npx', args: ['x'] }, { registry: 'a/b' }, false, broken)).toThrow(/set by your organization/);
  });

  it('leaves remote entries and containers alone', () => {
    expect(installed({ url: 'https://mcp.example.com' }, { registry: 'a/b' }, false)).toEqual({ url: 'https://mcp.example.com' });
    expect(installed({ command: 'docker', args: ['run', 'x'] }, { registry: 'a/b' })).toEqual({ command: 'docker', args: ['run', 'x'] });
  });

  it('every catalog entry\'s declared sandbox is valid in VS Code\'s format', () => {
    for (const id of ['filesystem', 'memory', 'everything', 'fetch', 'git', 'sqlite', 'postgres', 'context7', 'notion']) {
      const entry = installed({ command: 'npx', args: [] }, { catalog: id });
      expect(validateServerEntry(id, entry, SOURCE).ok, id).toBe(true);
      expect(entry.sandboxEnabled, id).toBe(true);
    }
  });
});
