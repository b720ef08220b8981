import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src-main/core/config/server-config';
import { policyPath, readPolicy, type PolicyState } from '../../../src-main/core/policy/policy-file';
import { effectiveApproval, identityOf, installVerdict, sandboxRequired, serverVerdict } from '../../../src-main/core/policy/policy-rules';
import type { Policy } from '../../../src-main/core/policy/policy-schema';

const SOURCE = { path: '/p/servers.json', origin: 'switchboard' as const, userWritten: true };
const common = { enabled: true, timeout: 30, toolTimeout: 60, approval: 'ask' as const, source: SOURCE };
const npx = (pkg: string): ServerConfig => ({ ...common, kind: 'stdio', name: 'n', command: '/usr/bin/npx', args: ['-y', pkg], env: {} });
const remote = (url: string): ServerConfig => ({ ...common, kind: 'remote', name: 'r', url, headers: {}, transport: 'auto' });
const active = (policy: Policy): PolicyState => ({ kind: 'active', path: '/etc/switchboard/policy.json', policy });
const dir = mkdtempSync(join(tmpdir(), 'policy-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('where the policy lives', () => {
  it('is /etc, /Library or %ProgramData% by platform, and SWITCHBOARD_POLICY overrides it', () => {
    expect(policyPath({}, 'linux')).toBe('/etc/switchboard/policy.json');
    expect(policyPath({}, 'darwin')).toBe('/Library/Application Support/Switchboard/policy.json');
    expect(policyPath({ ProgramData: 'C:\\ProgramData' }, 'win32')).toBe(join('C:\\ProgramData', 'Switchboard', 'policy.json'));
    expect(policyPath({ SWITCHBOARD_POLICY: '/tmp/p.json' }, 'linux')).toBe('/tmp/p.json');
  });

  it('lets SWITCHBOARD_POLICY name another file only where the organization has none: it cannot step around one', () => {
    const programData = mkdtempSync(join(tmpdir(), 'sb-programdata-'));
    const env = { ProgramData: programData, SWITCHBOARD_POLICY: '/tmp/elsewhere/policy.json' };
    expect(policyPath(env, 'win32', existsSync)).toBe('/tmp/elsewhere/policy.json');
    mkdirSync(join(programData, 'Switchboard'));
    writeFileSync(join(programData, 'Switchboard', 'policy.json'), '{"approvals": "always-ask"}');
    expect(policyPath(env, 'win32', existsSync)).toBe(join(programData, 'Switchboard', 'policy.json'));
    rmSync(programData, { recursive: true, force: true });
  });
});

describe('reading the policy file', () => {
  it('is none without a file, active with a valid one', async () => {
    expect(await readPolicy(join(dir, 'missing.json'))).toEqual({ kind: 'none' });
    expect(await readPolicy(file('ok.json', '{"sandbox":"required"}'))).toMatchObject({ kind: 'active', policy: { sandbox: 'required' } });
  });

  it('is broken, with the reason, for bad JSON, a misspelt rule or a wrong value — never half-read', async () => {
    expect(await readPolicy(file('bad.json', '{"sandbox": "required",'))).toMatchObject({ kind: 'broken', reason: expect.stringContaining('not valid JSON') });
    expect(await readPolicy(file('typo.json', '{"sandbox":"required","deniedServer":[{"package":"x"}]}'))).toMatchObject({ kind: 'broken', reason: expect.stringContaining('deniedServer') });
    expect(await readPolicy(file('value.json', '{"installs":"sometimes"}'))).toMatchObject({ kind: 'broken', reason: expect.stringContaining('"installs"') });
    expect(await readPolicy(file('empty-rule.json', '{"allowedServers":[{}]}'))).toMatchObject({ kind: 'broken', reason: expect.stringContaining('needs command, package, urlHost or registryName') });
  });
});

describe('policy rules (SECURITY X2)', () => {
  it('deniedServers by package name refuses that package, whatever version, and no other', () => {
    const policy = active({ deniedServers: [{ package: '@evil/mcp' }] });
    expect(serverVerdict(policy, identityOf(npx('@evil/mcp@1.2.3')))).toEqual({ ok: false, reason: 'refused: this server is blocked (set by your organization)' });
    expect(serverVerdict(policy, identityOf(npx('@good/mcp')))).toEqual({ ok: true });
  });

  it('deniedServers by command matches the command name or its path', () => {
    const policy = active({ deniedServers: [{ command: 'npx' }] });
    expect(serverVerdict(policy, identityOf(npx('x'))).ok).toBe(false);
    expect(serverVerdict(active({ deniedServers: [{ command: '/usr/bin/npx' }] }), identityOf(npx('x'))).ok).toBe(false);
  });

  it('deniedServers by URL host refuses that host only', () => {
    const policy = active({ deniedServers: [{ urlHost: 'mcp.evil.example' }] });
    expect(serverVerdict(policy, identityOf(remote('https://MCP.evil.example/mcp'))).ok).toBe(false);
    expect(serverVerdict(policy, identityOf(remote('https://mcp.good.example/mcp'))).ok).toBe(true);
  });

  it('allowedServers lets only what it lists start; deniedServers wins over it', () => {
    const policy = active({ allowedServers: [{ registryName: 'io.github.acme/tools' }, { package: '@acme/mcp' }], deniedServers: [{ package: '@acme/mcp' }] });
    expect(serverVerdict(policy, identityOf(npx('@other/mcp')))).toEqual({ ok: false, reason: 'refused: this server is not on the allowed list (set by your organization)' });
    expect(serverVerdict(policy, identityOf(npx('x'), 'io.github.acme/tools'))).toEqual({ ok: true });
    expect(serverVerdict(policy, identityOf(npx('@acme/mcp'))).ok).toBe(false);
  });

  it('sandbox "required" is required; absent it is not', () => {
    expect(sandboxRequired(active({ sandbox: 'required' }))).toBe(true);
    expect(sandboxRequired(active({}))).toBe(false);
    expect(sandboxRequired({ kind: 'none' })).toBe(false);
  });

  it('installs "registry-only" allows the registry and the catalog, refuses bundles, links and typed entries; "off" refuses all', () => {
    const only = active({ installs: 'registry-only' });
    expect(installVerdict(only, 'registry', {}).ok).toBe(true);
    expect(installVerdict(only, 'catalog', {}).ok).toBe(true);
    expect(installVerdict(only, 'bundle', {})).toEqual({ ok: false, reason: 'only servers from the registry may be installed (set by your organization)' });
    expect(installVerdict(only, 'link', {}).ok).toBe(false);
    expect(installVerdict(active({ installs: 'off' }), 'registry', {})).toEqual({ ok: false, reason: 'installing servers is turned off (set by your organization)' });
  });

  it('approvals "always-ask" turns an auto approval back to ask and says who set it', () => {
    expect(effectiveApproval(active({ approvals: 'always-ask' }), 'auto')).toEqual({ approval: 'ask', setByOrganization: true });
    expect(effectiveApproval(active({}), 'auto')).toEqual({ approval: 'auto', setByOrganization: false });
  });

  it('a broken policy refuses every server and install, requires the sandbox and locks approvals, with the reason', () => {
    const broken: PolicyState = { kind: 'broken', path: '/etc/switchboard/policy.json', reason: '/etc/switchboard/policy.json is not valid JSON' };
    expect(serverVerdict(broken, identityOf(npx('@good/mcp')))).toEqual({
      ok: false,
      reason: 'refused: the policy set by your organization is broken (/etc/switchboard/policy.json is not valid JSON)',
    });
    expect(serverVerdict(broken, identityOf(remote('https://x.example'))).ok).toBe(false);
    expect(installVerdict(broken, 'registry', {}).ok).toBe(false);
    expect(sandboxRequired(broken)).toBe(true);
    expect(effectiveApproval(broken, 'auto').approval).toBe('ask');
  });
});
