import type { InstallSandboxView, SandboxBlockView } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';
import { normalizeSandbox, parseSandboxFields } from '../config/sandbox-config';
import catalog from '../install/catalog.json';
import type { PolicyState } from '../policy/policy-file';
import { sandboxRequired, SET_BY_ORGANIZATION } from '../policy/policy-rules';

/** Hosts a package runner must reach to fetch its package the first time, by the runner the install writes. */
const RUNNER_HOSTS: Record<string, string[]> = {
  npx: ['registry.npmjs.org'],
  uvx: ['pypi.org', 'files.pythonhosted.org'],
};

/** Where an install comes from, as far as its sandbox is concerned: a catalog entry declares its own grants. */
export type SandboxOrigin = { catalog: string } | { registry: string } | { link: true };

/**
 * The sandbox an install of this entry writes (SECURITY X1, V2), as the form shows it before Install: on,
 * with the catalog entry's declared grants or, for a registry package or a linked command, only the hosts
 * its runner downloads from. A catalog server whose purpose a sandbox would refuse (`"sandbox": false`) starts
 * off; the person may switch it either way, unless the policy requires it. Remote entries and container
 * runtimes get none (undefined). Nothing a registry document or a link says reaches this: only the catalog,
 * which ships with Switchboard, declares grants.
 */
export function installSandboxView(entry: { command?: string }, origin: SandboxOrigin, policy: PolicyState): InstallSandboxView | undefined {
  if (typeof entry.command !== 'string' || entry.command === 'docker' || entry.command === 'podman') return undefined;
  let declared: unknown = { network: { allowedDomains: RUNNER_HOSTS[entry.command] ?? [] } };
  if ('catalog' in origin) {
    const item = catalog.servers.find((s) => s.id === origin.catalog);
    if (item && 'sandbox' in item) declared = item.sandbox;
  }
  const required = sandboxRequired(policy);
  const off = declared === false;
  const parsed = parseSandboxFields({ sandbox: off ? {} : declared });
  if (!parsed.ok) throw new Error(`catalog sandbox for ${JSON.stringify(origin)}: ${parsed.field} ${parsed.message}`);
  return {
    on: required || !off,
    sandbox: compactBlock(normalizeSandbox(parsed.fields.sandbox)),
    setByOrganization: required,
    ...(off ? { note: 'its purpose needs more than a sandbox gives (a browser, the whole machine)' } : {}),
  };
}

/**
 * The entry with the sandbox the form showed: the switch on writes `sandboxEnabled: true` and the block, off
 * writes `sandboxEnabled: false` and nothing else. Off is refused when the policy requires the sandbox.
 */
export function withInstallSandbox(entry: Record<string, unknown>, view: InstallSandboxView | undefined, wanted: boolean | undefined): Record<string, unknown> {
  if (!view) return entry;
  const on = wanted ?? view.on;
  if (!on && view.setByOrganization) throw new AppFailure('invalid_input', `this server must run sandboxed (${SET_BY_ORGANIZATION})`);
  if (!on) return { ...entry, sandboxEnabled: false };
  return { ...entry, sandboxEnabled: true, ...(Object.keys(view.sandbox).length ? { sandbox: view.sandbox } : {}) };
}

/** Only the lists that have something: the entry stays as short as the person would write it. */
export function compactBlock(sandbox: ReturnType<typeof normalizeSandbox>): SandboxBlockView {
  const compact = (lists: Record<string, string[]>) => Object.fromEntries(Object.entries(lists).filter(([, list]) => list.length > 0));
  return Object.fromEntries(Object.entries({ filesystem: compact(sandbox.filesystem), network: compact(sandbox.network) }).filter(([, section]) => Object.keys(section).length > 0));
}
