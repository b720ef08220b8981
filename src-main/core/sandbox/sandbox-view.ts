import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import type { SandboxView } from '../../../src-preload/contract';
import type { StdioServerConfig } from '../config/server-config';
import { dataHome } from '../data-home';
import { readPolicySync } from '../policy/policy-file';
import { sandboxRequired } from '../policy/policy-rules';
import { WINDOWS_NOT_SANDBOXED } from './sandbox-launch';
import { buildSandboxPlan, expandHome } from './sandbox-plan';
import { projectsFile } from '../config/project-list';
import { denialFromReason } from './sandbox-grant';

/**
 * How a local server's row and trust card describe its sandbox (SECURITY X1): on or off (and who decided),
 * the grants in plain words — only the ones a person gave (settings, arguments, working folder), not the
 * toolchain folders every server gets — and the refusal that stopped it, which Allow can grant.
 */
export function sandboxView(config: StdioServerConfig, reason: string | undefined, running?: string, platform: NodeJS.Platform = process.platform): SandboxView {
  const home = config.env.HOME ?? process.env.HOME ?? homedir();
  const required = sandboxRequired(readPolicySync());
  const on = required || config.sandboxEnabled === true;
  // The refusal that stopped it, else one a call met while it kept running.
  const text = [reason, running].find((t) => t !== undefined && denialFromReason(t, home));
  const denial = text ? denialFromReason(text, home) : undefined;
  const base = { setByOrganization: required, ...(denial ? { denial: { kind: denial.kind, text: text! } } : {}) };
  if (platform === 'win32') return { status: on ? 'unavailable' : 'off', note: WINDOWS_NOT_SANDBOXED, grants: [], domains: [], ...base };
  if (!on) return { status: 'off', grants: [], domains: [], ...base };
  const plan = buildSandboxPlan({
    command: config.command,
    args: config.args,
    ...(config.cwd ? { cwd: expandHome(config.cwd, home) } : {}),
    settings: config.sandbox,
    home,
    dataHome: dataHome(),
    roots: projectsSync(),
  });
  const grants = plan.grants.filter((g) => g.from === 'setting' || g.from === 'argument' || g.from === 'root' || g.from === 'working folder');
  return { status: 'on', grants, domains: plan.network.kind === 'domains' ? plan.network.allowed : [], ...base };
}

/** The project folders, read as the launch reads them (a snapshot is built synchronously). */
function projectsSync(): string[] {
  try {
    // { "projects": [absolute paths] } (config/project-list); anything else grants nothing.
    const parsed = JSON.parse(readFileSync(projectsFile(dataHome()), 'utf8')) as { projects?: unknown };
    return Array.isArray(parsed.projects) ? parsed.projects.filter((p): p is string => typeof p === 'string' && isAbsolute(p)) : [];
  } catch {
    return [];
  }
}
