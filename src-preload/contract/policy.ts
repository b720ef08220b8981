/** The administrator's policy as the renderer sees it (SECURITY X2): read-only, derived from the file each time it is asked. */
import { empty, out } from './common';

/** What the policy decides, in the terms the pages need; the file itself never crosses. */
export interface PolicyView {
  /** none: no policy file; active: a valid one; broken: one that cannot be read or parsed (it fails closed). */
  status: 'none' | 'active' | 'broken';
  /** The policy file read (absent when there is none). */
  path?: string;
  /** Why a broken file is broken, as the core words it (scrubbed at the answer edge). */
  problem?: string;
  /** Every tool call asks: no always-allow, allow rule, read-only auto-allow or `approval: "auto"` is honoured. */
  approvalsLocked: boolean;
  /** Every local server runs in the sandbox whatever its entry says. */
  sandboxRequired: boolean;
  /** What may be installed: anything, only from the MCP Registry or the catalog, or nothing. */
  installs: 'allowed' | 'registry-only' | 'off';
  /** Some servers are blocked, or only listed ones may run (a row shows its own refusal). */
  limitsServers: boolean;
  /** Configured servers whose `approval: "auto"` is not honoured while approvals are locked. */
  autoOverridden: string[];
}

export const policyInvokes = {
  getPolicy: { input: empty, output: out<PolicyView>() },
} as const;
