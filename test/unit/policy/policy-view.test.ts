import { describe, expect, it } from 'vitest';
import { refuseAutoApproval, refuseRelaxedRules } from '../../../src-main/core/policy/approval-locks';
import type { PolicyState } from '../../../src-main/core/policy/policy-file';
import type { Policy } from '../../../src-main/core/policy/policy-schema';
import { policyView } from '../../../src-main/core/policy/policy-view';

const PATH = '/etc/switchboard/policy.json';
const active = (policy: Policy): PolicyState => ({ kind: 'active', path: PATH, policy });
const servers = [
  { name: 'auto-one', approval: 'auto' as const },
  { name: 'asks', approval: 'ask' as const },
];

describe('the policy as the renderer sees it (SECURITY X2)', () => {
  it('without a policy file, locks nothing', () => {
    expect(policyView({ kind: 'none' }, servers)).toEqual({
      status: 'none',
      approvalsLocked: false,
      sandboxRequired: false,
      installs: 'allowed',
      limitsServers: false,
      autoOverridden: [],
    });
  });

  it('says what a valid policy locks, and which servers set to auto ask anyway', () => {
    const view = policyView(active({ approvals: 'always-ask', sandbox: 'required', installs: 'registry-only', deniedServers: [{ package: '@evil/mcp' }] }), servers);
    expect(view).toEqual({
      status: 'active',
      path: PATH,
      approvalsLocked: true,
      sandboxRequired: true,
      installs: 'registry-only',
      limitsServers: true,
      autoOverridden: ['auto-one'],
    });
    expect(policyView(active({ installs: 'off' }), servers)).toMatchObject({ installs: 'off', approvalsLocked: false, sandboxRequired: false, limitsServers: false, autoOverridden: [] });
    expect(policyView(active({ approvals: 'person-decides', sandbox: 'optional', installs: 'allowed', allowedServers: [] }), servers)).toMatchObject({
      approvalsLocked: false,
      sandboxRequired: false,
      installs: 'allowed',
      limitsServers: true,
    });
  });

  it('a broken policy file locks everything it governs, with the file and the reason', () => {
    const view = policyView({ kind: 'broken', path: PATH, reason: `${PATH} is not valid JSON: Unexpected end of JSON input` }, servers);
    expect(view).toEqual({
      status: 'broken',
      path: PATH,
      problem: `${PATH} is not valid JSON: Unexpected end of JSON input`,
      approvalsLocked: true,
      sandboxRequired: true,
      installs: 'off',
      limitsServers: true,
      autoOverridden: ['auto-one'],
    });
  });
});

describe('what may not be relaxed while every call asks (SECURITY X2)', () => {
  const before = { autoAllowReadOnly: false, rules: [{ pattern: 'old__*', effect: 'allow' }] };

  it('refuses a new allow rule and read-only auto-allow, set by your organization', () => {
    expect(() => refuseRelaxedRules(before, { ...before, rules: [...before.rules, { pattern: 'github__*', effect: 'allow' }] }, true)).toThrow(
      'the allow rule "github__*" cannot be added: every tool call asks (set by your organization)',
    );
    expect(() => refuseRelaxedRules(before, { ...before, autoAllowReadOnly: true }, true)).toThrow('read-only tools cannot run without asking: every tool call asks (set by your organization)');
    // A rule that denied becoming one that allows is a new allow rule.
    expect(() => refuseRelaxedRules({ autoAllowReadOnly: false, rules: [{ pattern: 'x', effect: 'deny' }] }, { autoAllowReadOnly: false, rules: [{ pattern: 'x', effect: 'allow' }] }, true)).toThrow('"x"');
  });

  it('lets what only tightens through, and keeps what was there', () => {
    expect(() => refuseRelaxedRules(before, { ...before, rules: [...before.rules, { pattern: '*__delete_*', effect: 'deny' }, { pattern: 'a', effect: 'ask' }] }, true)).not.toThrow();
    expect(() => refuseRelaxedRules(before, { autoAllowReadOnly: false, rules: [] }, true)).not.toThrow();
    expect(() => refuseRelaxedRules({ ...before, autoAllowReadOnly: true }, { ...before, autoAllowReadOnly: true }, true)).not.toThrow();
    // Unlocked, the person decides.
    expect(() => refuseRelaxedRules(before, { autoAllowReadOnly: true, rules: [{ pattern: '*', effect: 'allow' }] }, false)).not.toThrow();
  });

  it('refuses a server newly set to auto, not one that had it, nor one that asks', () => {
    expect(() => refuseAutoApproval('box', { command: 'node', approval: 'auto' }, undefined, true)).toThrow('server "box" cannot be set to run without asking: every tool call asks (set by your organization)');
    expect(() => refuseAutoApproval('box', { command: 'node', approval: 'auto' }, { command: 'node' }, true)).toThrow('set by your organization');
    expect(() => refuseAutoApproval('box', { command: 'node', approval: 'auto' }, { command: 'old', approval: 'auto' }, true)).not.toThrow();
    expect(() => refuseAutoApproval('box', { command: 'node' }, { command: 'node', approval: 'auto' }, true)).not.toThrow();
    expect(() => refuseAutoApproval('box', { command: 'node', approval: 'auto' }, undefined, false)).not.toThrow();
  });
});
