import type { PolicyView } from '../../../src-preload/contract/policy';
import type { PolicyState } from './policy-file';
import { approvalsLocked, sandboxRequired } from './policy-rules';

/** What a configured server says about asking, for the servers whose `approval: "auto"` the policy overrides. */
export interface ApprovalSetting {
  name: string;
  approval: 'ask' | 'auto';
}

/**
 * The policy as the renderer sees it (SECURITY X2): what it locks, never the file. Derived from the state
 * read at the time it is asked, so a page shows the file as it is now. A broken file locks everything it
 * governs — approvals, the sandbox, installs, every server — exactly as the rules read it.
 */
export function policyView(state: PolicyState, servers: readonly ApprovalSetting[] = []): PolicyView {
  const locked = approvalsLocked(state);
  const common = {
    approvalsLocked: locked,
    sandboxRequired: sandboxRequired(state),
    autoOverridden: locked ? servers.filter((s) => s.approval === 'auto').map((s) => s.name) : [],
  };
  switch (state.kind) {
    case 'none':
      return { status: 'none', installs: 'allowed', limitsServers: false, ...common };
    case 'broken':
      return { status: 'broken', path: state.path, problem: state.reason, installs: 'off', limitsServers: true, ...common };
    case 'active': {
      const { installs = 'allowed', allowedServers, deniedServers } = state.policy;
      return { status: 'active', path: state.path, installs, limitsServers: allowedServers !== undefined || (deniedServers?.length ?? 0) > 0, ...common };
    }
    default:
      return state satisfies never;
  }
}
