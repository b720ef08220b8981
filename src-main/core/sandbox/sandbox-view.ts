import { homedir } from 'node:os';
import type { SandboxView } from '../../../src-preload/contract';
import type { StdioServerConfig } from '../config/server-config';
import { dataHome } from '../data-home';
import { readPolicySync } from '../policy/policy-file';
import { sandboxRequired } from '../policy/policy-rules';
import { WINDOWS_NOT_SANDBOXED } from './sandbox-launch';
import { buildSandboxPlan, expandHome } from './sandbox-plan';
import { denialFromReason } from './sandbox-grant';

/**
 * How a local server's row and trust card describe its sandbox (SECURITY X1): on or off (and who decided),
 * the grants in plain words — only the ones a person gave (settings, arguments, working folder), not the
 * toolchain folders every server gets — and the refusal that stopped it, which Allow can grant.
 */
export function sandboxView(config: StdioServerConfig, reason: string | undefined, platform: NodeJS.Platform = process.platform): SandboxView {
  const home = config.env.HOME ?? process.env.HOME ?? homedir();
  const required = sandboxRequired(readPolicySync());
  const on = required || config.sandboxEnabled === true;
  const denial = reason ? denialFromReason(reason, home) : undefined;
  const base = { setByOrganization: required, ...(denial ? { denial: { kind: denial.kind, text: reason! } } : {}) };
  if (platform === 'win32') return { status: on ? 'unavailable' : 'off', note: WINDOWS_NOT_SANDBOXED, grants: [], domains: [], ...base };
  if (!on) return { status: 'off', grants: [], domains: [], ...base };
  const plan = buildSandboxPlan({
    command: config.command,
    args: config.args,
    ...(config.cwd ? { cwd: expandHome(config.cwd, home) } : {}),
    settings: config.sandbox,
    home,
    dataHome: dataHome(),
  });
  const grants = plan.grants.filter((g) => g.from === 'setting' || g.from === 'argument' || g.from === 'working folder');
  return { status: 'on', grants, domains: plan.network.kind === 'domains' ? plan.network.allowed : [], ...base };
}
