import { basename } from 'node:path';
import type { PolicyState } from './policy-file';
import type { ServerMatcher } from './policy-schema';

/** The words every decision of the policy carries on screen. */
export const SET_BY_ORGANIZATION = 'set by your organization';

export type PolicyVerdict = { ok: true } | { ok: false; reason: string };

/** What identifies a server to a policy rule: its command, its package, its host, its registry name. */
export interface ServerIdentity {
  command?: string;
  package?: string;
  urlHost?: string;
  registryName?: string;
}

/** What the matchers read of a server: a configured one, or an entry about to be installed. */
export type IdentifiedConfig = { kind: 'remote'; url: string } | { kind: 'stdio'; command: string; args: string[] };

/** A server's identity: the package is read from a package runner's arguments (npx, uvx, pipx, bunx, pnpm dlx). */
export function identityOf(config: IdentifiedConfig, registryName?: string): ServerIdentity {
  if (config.kind === 'remote') {
    const host = URL.canParse(config.url) ? new URL(config.url).hostname : undefined;
    return { ...(host ? { urlHost: host } : {}), ...(registryName ? { registryName } : {}) };
  }
  const pkg = packageFromRunner(config.command, config.args);
  return { command: config.command, ...(pkg ? { package: pkg } : {}), ...(registryName ? { registryName } : {}) };
}

const RUNNERS = new Set(['npx', 'bunx', 'uvx', 'pipx', 'pnpx']);

function packageFromRunner(command: string, args: string[]): string | undefined {
  const runner = basename(command).replace(/\.(cmd|exe)$/i, '');
  let rest = args;
  if ((runner === 'pnpm' || runner === 'yarn') && args[0] === 'dlx') rest = args.slice(1);
  else if (runner === 'pipx' && args[0] === 'run') rest = args.slice(1);
  else if (!RUNNERS.has(runner)) return undefined;
  const spec = rest.find((a) => !a.startsWith('-'));
  if (!spec) return undefined;
  // "@scope/name@1.2.3" → "@scope/name"; "name==1.0" → "name".
  return spec.replace(/(?<=.)@[^/]*$/, '').replace(/[=<>!~].*$/, '');
}

function matches(matcher: ServerMatcher, id: ServerIdentity): boolean {
  const commandMatches = (wanted: string) =>
    id.command !== undefined && (id.command === wanted || basename(id.command).replace(/\.(cmd|exe)$/i, '') === wanted);
  return (
    (matcher.command === undefined || commandMatches(matcher.command)) &&
    (matcher.package === undefined || id.package === matcher.package) &&
    (matcher.urlHost === undefined || id.urlHost?.toLowerCase() === matcher.urlHost.toLowerCase()) &&
    (matcher.registryName === undefined || id.registryName === matcher.registryName)
  );
}

/** May this server start, or be installed (SECURITY X2)? A broken policy refuses every server. */
export function serverVerdict(state: PolicyState, id: ServerIdentity): PolicyVerdict {
  if (state.kind === 'none') return { ok: true };
  if (state.kind === 'broken') return { ok: false, reason: `refused: the policy ${SET_BY_ORGANIZATION} is broken (${state.reason})` };
  const { allowedServers, deniedServers } = state.policy;
  if (deniedServers?.some((m) => matches(m, id))) return { ok: false, reason: `refused: this server is blocked (${SET_BY_ORGANIZATION})` };
  if (allowedServers && !allowedServers.some((m) => matches(m, id))) {
    return { ok: false, reason: `refused: this server is not on the allowed list (${SET_BY_ORGANIZATION})` };
  }
  return { ok: true };
}

/** Must local servers run sandboxed whatever their entry says? A broken policy is read as yes. */
export function sandboxRequired(state: PolicyState): boolean {
  if (state.kind === 'broken') return true;
  return state.kind === 'active' && state.policy.sandbox === 'required';
}

export type InstallSource = 'registry' | 'catalog' | 'bundle' | 'link' | 'typed';

/** May an install from this source go ahead? */
export function installVerdict(state: PolicyState, source: InstallSource, id: ServerIdentity): PolicyVerdict {
  if (state.kind === 'broken') return serverVerdict(state, id);
  const installs = state.kind === 'active' ? state.policy.installs : undefined;
  if (installs === 'off') return { ok: false, reason: `installing servers is turned off (${SET_BY_ORGANIZATION})` };
  if (installs === 'registry-only' && source !== 'registry' && source !== 'catalog') {
    return { ok: false, reason: `only servers from the registry may be installed (${SET_BY_ORGANIZATION})` };
  }
  return serverVerdict(state, id);
}

/** Does the policy (or a broken one) say every call asks: no always-allow, rule or server setting may skip the question? */
export function approvalsLocked(state: PolicyState): boolean {
  return state.kind === 'broken' || (state.kind === 'active' && state.policy.approvals === 'always-ask');
}

/** The approval a server really gets: "auto" is not honoured when the policy (or a broken one) says always ask. */
export function effectiveApproval(state: PolicyState, wanted: 'ask' | 'auto'): { approval: 'ask' | 'auto'; setByOrganization: boolean } {
  return approvalsLocked(state) ? { approval: 'ask', setByOrganization: wanted === 'auto' } : { approval: wanted, setByOrganization: false };
}
