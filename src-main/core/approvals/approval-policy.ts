/**
 * Pure approval policy: given a tool, its current definition hash, the user's settings and
 * grants, decide whether a call runs, asks, or is refused. No I/O, no clock.
 * Annotations are hints from the server, never security (SECURITY A2): readOnlyHint can
 * auto-allow only when the user opted in, and only explicit destructiveHint: true forces a prompt
 * (the spec's default for a missing hint is "destructive", which would make every tool ask forever).
 */
import type { AskReason } from '../../../src-preload/contract/chat';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import type { ToolDefinition } from './tool-fingerprint';

export type RuleEffect = 'allow' | 'ask' | 'deny';
export interface ApprovalRule {
  /** Glob over the namespaced name: "*" any run of characters, "?" one character. */
  pattern: string;
  effect: RuleEffect;
}

export type ServerApproval = 'ask' | 'auto';

export interface PolicySettings {
  rules: ApprovalRule[];
  autoAllowReadOnly: boolean;
  serverApproval: (server: string) => ServerApproval;
}

/** An always-allow the user gave, with the definition it vouched for. */
export interface StoredGrant {
  scope: 'tool' | 'server';
  fingerprint: string;
  definition: ToolDefinition;
}

export type GrantLookup =
  | { kind: 'none' }
  | { kind: 'granted'; scope: 'tool' | 'server' }
  /** Granted once, but the definition changed since: the grant no longer counts (A3). */
  | { kind: 'changed'; scope: 'tool' | 'server'; approved: ToolDefinition }
  /** The server is always-allowed, but this tool was not among its tools then. */
  | { kind: 'new_tool_on_server' };


export type PolicyVerdict =
  | { kind: 'allow'; because: string }
  | { kind: 'deny'; because: string }
  | { kind: 'ask'; reason: AskReason; because: string; approved?: ToolDefinition };

export function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/** Rules are matched on every tool call; each pattern is compiled once (a handful per user). */
const compiledGlobs = new Map<string, RegExp>();
function compiledGlob(pattern: string): RegExp {
  let compiled = compiledGlobs.get(pattern);
  if (!compiled) compiledGlobs.set(pattern, (compiled = globToRegExp(pattern)));
  return compiled;
}

const CAUTION: Record<RuleEffect, number> = { deny: 2, ask: 1, allow: 0 };

/**
 * Most specific matching rule wins. Specificity = number of literal (non-wildcard) characters,
 * so "*__delete_*" (9) beats "github__*" (8) for github__delete_repo; on a tie, fewer wildcards
 * wins; on a further tie, the more cautious effect (deny > ask > allow), so order never matters.
 */
export function matchRule(rules: ApprovalRule[], name: string): ApprovalRule | undefined {
  const score = (r: ApprovalRule): [number, number, number] => {
    const wildcards = (r.pattern.match(/[*?]/g) ?? []).length;
    return [r.pattern.length - wildcards, -wildcards, CAUTION[r.effect]];
  };
  let best: ApprovalRule | undefined;
  for (const rule of rules) {
    if (!compiledGlob(rule.pattern).test(name)) continue;
    if (!best || compare(score(rule), score(best)) > 0) best = rule;
  }
  return best;
}

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/**
 * Order: destructiveHint asks; a rule's deny/ask wins over grants and auto; a changed definition
 * loses its grant; a grant allows; a rule's allow, the server's `auto`, or an opted-in
 * readOnlyHint allow; everything else asks.
 */
export function decide(tool: CatalogTool, grant: GrantLookup, settings: PolicySettings): PolicyVerdict {
  if (tool.annotations?.destructiveHint === true) {
    return { kind: 'ask', reason: 'destructive', because: 'the server marks this tool as destructive' };
  }
  const rule = matchRule(settings.rules, tool.qualifiedName);
  if (rule?.effect === 'deny') return { kind: 'deny', because: `the rule "${rule.pattern}: deny"` };
  if (rule?.effect === 'ask') return { kind: 'ask', reason: 'rule', because: `the rule "${rule.pattern}: ask"` };
  switch (grant.kind) {
    case 'changed':
      return { kind: 'ask', reason: 'definition_changed', because: 'the tool changed since you always-allowed it', approved: grant.approved };
    case 'new_tool_on_server':
      if (rule?.effect === 'allow') return { kind: 'allow', because: `the rule "${rule.pattern}: allow"` };
      return { kind: 'ask', reason: 'new_tool_on_server', because: `this tool appeared after you always-allowed the server "${tool.server}"` };
    case 'granted':
      return { kind: 'allow', because: grant.scope === 'tool' ? 'you always allow this tool' : `you always allow the server "${tool.server}"` };
    case 'none':
      break;
    default:
      return grant satisfies never;
  }
  if (rule?.effect === 'allow') return { kind: 'allow', because: `the rule "${rule.pattern}: allow"` };
  if (settings.serverApproval(tool.server) === 'auto') return { kind: 'allow', because: `the server "${tool.server}" is set to approval: auto` };
  if (settings.autoAllowReadOnly && tool.annotations?.readOnlyHint === true) {
    return { kind: 'allow', because: 'the tool says it is read-only and you allow read-only tools' };
  }
  return { kind: 'ask', reason: 'default', because: 'every tool call asks unless you allowed it' };
}
