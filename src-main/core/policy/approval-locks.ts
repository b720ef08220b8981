import { AppFailure } from '../app-error';
import { readPolicySync } from './policy-file';
import { approvalsLocked, SET_BY_ORGANIZATION } from './policy-rules';

/**
 * The writes that would let a tool call skip the question, refused while the policy says every call asks
 * (SECURITY X2). The call path asks anyway; refusing the write keeps a setting from claiming what it cannot do
 * and the renderer from relaxing anything through the API. What only tightens (a deny rule, removing an allow
 * rule, "ask") is never refused, and what was already there may stay (it is shown as not in force).
 */

const LOCKED = `every tool call asks (${SET_BY_ORGANIZATION})`;

/** The current lock, read from the policy file as it is now. */
export const approvalsLockedNow = (): boolean => approvalsLocked(readPolicySync());

interface RuleSettings {
  autoAllowReadOnly: boolean;
  rules: readonly { pattern: string; effect: string }[];
}

/** A new allow rule, or read-only auto-allow switched on. */
export function refuseRelaxedRules(before: RuleSettings, next: RuleSettings, locked: boolean = approvalsLockedNow()): void {
  if (!locked) return;
  if (next.autoAllowReadOnly && !before.autoAllowReadOnly) throw new AppFailure('invalid_input', `read-only tools cannot run without asking: ${LOCKED}`);
  const allowed = new Set(before.rules.filter((r) => r.effect === 'allow').map((r) => r.pattern));
  const added = next.rules.find((r) => r.effect === 'allow' && !allowed.has(r.pattern));
  if (added) throw new AppFailure('invalid_input', `the allow rule "${added.pattern}" cannot be added: ${LOCKED}`);
}

/** A server entry set to `approval: "auto"` that was not before (a new entry, or one that asked). */
export function refuseAutoApproval(name: string, entry: unknown, before: unknown, locked: boolean = approvalsLockedNow()): void {
  if (!locked || approvalOf(entry) !== 'auto' || approvalOf(before) === 'auto') return;
  throw new AppFailure('invalid_input', `server "${name}" cannot be set to run without asking: ${LOCKED}`);
}

function approvalOf(entry: unknown): unknown {
  return typeof entry === 'object' && entry !== null && !Array.isArray(entry) ? (entry as { approval?: unknown }).approval : undefined;
}
