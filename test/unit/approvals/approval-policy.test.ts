import { describe, expect, it } from 'vitest';
import { decide, matchRule, type ApprovalRule, type PolicySettings } from '../../../src-main/core/approvals/approval-policy';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { catalogTool } from '../../support/catalog-tool';

const tool = (name: string, annotations: CatalogTool['annotations'] = {}): CatalogTool => {
  const [server, t] = name.split('__') as [string, string];
  return catalogTool(server, t, { description: 'd', annotations });
};
const settings = (over: Partial<PolicySettings> = {}): PolicySettings => ({ rules: [], autoAllowReadOnly: false, serverApproval: () => 'ask', ...over });
const none = { kind: 'none' } as const;

describe('matchRule', () => {
  const rules: ApprovalRule[] = [
    { pattern: 'github__*', effect: 'allow' },
    { pattern: '*__delete_*', effect: 'ask' },
  ];
  it('picks the rule with more literal characters when two match', () => {
    expect(matchRule(rules, 'github__delete_repo')).toEqual({ pattern: '*__delete_*', effect: 'ask' });
    expect(matchRule([...rules].reverse(), 'github__delete_repo')).toEqual({ pattern: '*__delete_*', effect: 'ask' });
  });
  it('matches a glob against the whole name only', () => {
    expect(matchRule(rules, 'github__list_issues')?.effect).toBe('allow');
    expect(matchRule(rules, 'mygithub__list_issues')).toBeUndefined();
    expect(matchRule([{ pattern: 'a.b__x', effect: 'allow' }], 'aXb__x')).toBeUndefined();
  });
  it('breaks a specificity tie toward the more cautious effect, whatever the order', () => {
    const tie: ApprovalRule[] = [
      { pattern: 'fs__*', effect: 'allow' },
      { pattern: 'fs__*', effect: 'deny' },
    ];
    expect(matchRule(tie, 'fs__read')?.effect).toBe('deny');
    expect(matchRule([...tie].reverse(), 'fs__read')?.effect).toBe('deny');
  });
  it('treats ? as exactly one character', () => {
    expect(matchRule([{ pattern: 'x__get?', effect: 'allow' }], 'x__getA')?.effect).toBe('allow');
    expect(matchRule([{ pattern: 'x__get?', effect: 'allow' }], 'x__get')).toBeUndefined();
  });
});

describe('decide', () => {
  it('asks by default', () => {
    expect(decide(tool('s__t'), none, settings())).toMatchObject({ kind: 'ask', reason: 'default' });
  });
  it('allows a server set to approval: auto', () => {
    expect(decide(tool('s__t'), none, settings({ serverApproval: (s) => (s === 's' ? 'auto' : 'ask') }))).toEqual({
      kind: 'allow',
      because: 'the server "s" is set to approval: auto',
    });
    expect(decide(tool('other__t'), none, settings({ serverApproval: (s) => (s === 's' ? 'auto' : 'ask') })).kind).toBe('ask');
  });
  it('lets readOnlyHint auto-allow only when the user opted in', () => {
    expect(decide(tool('s__t', { readOnlyHint: true }), none, settings()).kind).toBe('ask');
    expect(decide(tool('s__t', { readOnlyHint: true }), none, settings({ autoAllowReadOnly: true })).kind).toBe('allow');
  });
  it('always asks for destructiveHint: true, over auto, rules, grants and read-only opt-in', () => {
    const destructive = tool('github__delete_repo', { destructiveHint: true, readOnlyHint: true });
    const everything = settings({ serverApproval: () => 'auto', autoAllowReadOnly: true, rules: [{ pattern: 'github__*', effect: 'allow' }] });
    expect(decide(destructive, { kind: 'granted', scope: 'tool' }, everything)).toMatchObject({ kind: 'ask', reason: 'destructive' });
  });
  it('applies the most specific rule: github__* allows, *__delete_* asks', () => {
    const rules: ApprovalRule[] = [
      { pattern: 'github__*', effect: 'allow' },
      { pattern: '*__delete_*', effect: 'ask' },
    ];
    expect(decide(tool('github__list_issues'), none, settings({ rules }))).toEqual({ kind: 'allow', because: 'the rule "github__*: allow"' });
    expect(decide(tool('github__delete_branch'), none, settings({ rules }))).toMatchObject({ kind: 'ask', reason: 'rule' });
  });
  it('lets a rule ask or deny even when the tool is always-allowed or the server is auto', () => {
    const rules: ApprovalRule[] = [{ pattern: '*__delete_*', effect: 'ask' }, { pattern: 'shell__*', effect: 'deny' }];
    const auto = settings({ rules, serverApproval: () => 'auto' });
    expect(decide(tool('fs__delete_file'), { kind: 'granted', scope: 'tool' }, auto).kind).toBe('ask');
    expect(decide(tool('shell__run'), { kind: 'granted', scope: 'server' }, auto)).toEqual({ kind: 'deny', because: 'the rule "shell__*: deny"' });
  });
  it('allows a granted tool and asks again, with the approved definition, when it changed', () => {
    expect(decide(tool('s__t'), { kind: 'granted', scope: 'tool' }, settings())).toEqual({ kind: 'allow', because: 'you always allow this tool' });
    const approved = { tool: 't', description: 'old', inputSchema: {}, annotations: {} };
    expect(decide(tool('s__t'), { kind: 'changed', scope: 'tool', approved }, settings({ serverApproval: () => 'auto' }))).toMatchObject({
      kind: 'ask',
      reason: 'definition_changed',
      approved,
    });
  });
  it('asks for a tool that appeared after the server was always-allowed', () => {
    expect(decide(tool('s__new'), { kind: 'new_tool_on_server' }, settings())).toMatchObject({ kind: 'ask', reason: 'new_tool_on_server' });
  });
});
