import type { InstallSource } from '../../../src-preload/contract/install';
import { normalizeSandbox, parseSandboxFields } from '../config/sandbox-config';
import catalog from '../install/catalog.json';

/** Hosts a package runner must reach to fetch its package the first time, by the runner the install writes. */
const RUNNER_HOSTS: Record<string, string[]> = {
  npx: ['registry.npmjs.org'],
  uvx: ['pypi.org', 'files.pythonhosted.org'],
};

/**
 * An installed local server runs sandboxed (SECURITY X1): the catalog entry's declared grants (or `false`
 * for a server whose purpose a sandbox would refuse), or for a registry package the hosts its runner needs.
 * Remote entries and container runtimes are left as they are.
 */
export function withInstallSandbox(entry: Record<string, unknown>, source: InstallSource): Record<string, unknown> {
  if (typeof entry.command !== 'string' || entry.command === 'docker' || entry.command === 'podman') return entry;
  let declared: unknown = { network: { allowedDomains: RUNNER_HOSTS[entry.command] ?? [] } };
  if ('catalog' in source) {
    const item = catalog.servers.find((s) => s.id === source.catalog);
    if (item && 'sandbox' in item) declared = item.sandbox;
  }
  if (declared === false) return entry;
  const parsed = parseSandboxFields({ sandbox: declared });
  if (!parsed.ok) throw new Error(`catalog sandbox for ${JSON.stringify(source)}: ${parsed.field} ${parsed.message}`);
  const sandbox = normalizeSandbox(parsed.fields.sandbox);
  const block = Object.fromEntries(Object.entries({ filesystem: compact(sandbox.filesystem), network: compact(sandbox.network) }).filter(([, section]) => Object.keys(section).length > 0));
  return { ...entry, sandboxEnabled: true, sandbox: block };
}

/** Only the lists that have something: the entry stays as short as the person would write it. */
function compact<T extends Record<string, string[]>>(lists: T): Partial<T> {
  return Object.fromEntries(Object.entries(lists).filter(([, list]) => list.length > 0)) as Partial<T>;
}
