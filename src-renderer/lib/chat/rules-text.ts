/** Approval rules as lines of text, "pattern: effect", for the settings panel. */
import type { ApprovalRuleView } from '../../../src-preload/contract/chat';

const EFFECTS = ['allow', 'ask', 'deny'] as const;

export function formatRules(rules: readonly ApprovalRuleView[]): string {
  return rules.map((r) => `${r.pattern}: ${r.effect}`).join('\n');
}

export function parseRules(text: string): { ok: true; rules: ApprovalRuleView[] } | { ok: false; error: string } {
  const rules: ApprovalRuleView[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.lastIndexOf(':');
    if (colon < 0) return { ok: false, error: `rule on line ${i + 1} needs the form "pattern: allow|ask|deny"` };
    const pattern = line.slice(0, colon).trim();
    const effect = line.slice(colon + 1).trim();
    if (pattern === '') return { ok: false, error: `rule on line ${i + 1} has no pattern` };
    if (pattern.length > 200) return { ok: false, error: `rule on line ${i + 1}: the pattern is over 200 characters` };
    if (!(EFFECTS as readonly string[]).includes(effect)) return { ok: false, error: `rule on line ${i + 1}: "${effect}" is not allow, ask or deny` };
    rules.push({ pattern, effect: effect as ApprovalRuleView['effect'] });
  }
  return { ok: true, rules };
}
