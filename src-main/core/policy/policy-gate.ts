import type { ExpandResult } from '../config/expand';
import { readPolicy } from './policy-file';
import { identityOf, serverVerdict } from './policy-rules';

/**
 * The policy's say on a server about to start or connect (SECURITY X2), on the config as it will run
 * (references expanded, so a `${VAR}` cannot hide a denied host). Remote servers are decided here; local
 * ones again in prepareStdio, which also applies `sandbox: "required"`.
 */
export async function policyGate(expanded: ExpandResult): Promise<ExpandResult> {
  if (!expanded.ok) return expanded;
  const verdict = serverVerdict(await readPolicy(), identityOf(expanded.config));
  return verdict.ok ? expanded : { ok: false, message: verdict.reason };
}
