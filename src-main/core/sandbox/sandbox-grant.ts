import { readServersDocument } from '../../../src-preload/contract/servers-document';
import { AppFailure } from '../app-error';
import { readTextIfExists } from '../config/atomic-file';
import { updateServer } from '../config/config-writer';
import { serversFile } from '../data-home';
import { changeBundles, writeBundles } from '../install/bundle-store';
import type { SandboxDenial } from './sandbox-denial';
import { expandHome } from './sandbox-plan';

const REASON = /^blocked by the sandbox: (read|write|connect to) (.+)$/;

/** The refusal a state reason names ("blocked by the sandbox: read ~/.netrc"), read back from the reason itself. */
export function denialFromReason(reason: string, home: string): SandboxDenial | undefined {
  const match = REASON.exec(reason);
  if (!match) return undefined;
  const [, verb, target] = match as unknown as [string, string, string];
  if (verb === 'connect to') return target === 'the network' ? undefined : { kind: 'connect', host: target };
  return { kind: verb as 'read' | 'write', path: expandHome(target, home) };
}

/** Where in the VS Code-shaped block a denial's grant goes. */
function grantField(denial: SandboxDenial): { section: 'filesystem' | 'network'; field: string; value: string } {
  switch (denial.kind) {
    case 'read':
      return { section: 'filesystem', field: 'allowRead', value: denial.path };
    case 'write':
      return { section: 'filesystem', field: 'allowWrite', value: denial.path };
    case 'connect':
      return { section: 'network', field: 'allowedDomains', value: denial.host.replace(/^\[|\](?=:|$)/g, '') };
  }
}

/**
 * Allow: writes the grant for the refusal that stopped this server into its own entry in servers.json
 * (only that file; comments and other entries untouched, the edit validated like any other). The caller
 * reloads, and the changed sandbox block restarts the server (it is part of the launch hash).
 */
export async function writeSandboxGrant(home: string, name: string, denial: SandboxDenial): Promise<void> {
  const document = readServersDocument((await readTextIfExists(serversFile(home))) ?? '{}');
  const entry = document.ok ? (document.entries as Record<string, unknown>)[name] : undefined;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new AppFailure('not_found', `no server "${name}" in servers.json; a grant is written only to Switchboard's own file`);
  }
  await updateServer(home, name, withGrant(entry as Record<string, unknown>, denial));
}

/** The same for an installed bundle, whose entry Switchboard keeps in bundles.json (its own file, not the person's). */
export async function writeBundleSandboxGrant(home: string, name: string, denial: SandboxDenial): Promise<void> {
  await changeBundles(home, async (file) => {
    const entry = Object.hasOwn(file.servers, name) ? file.servers[name] : undefined;
    if (!entry) throw new AppFailure('not_found', `no installed bundle "${name}"`);
    await writeBundles(home, { ...file, servers: { ...file.servers, [name]: withGrant(entry as unknown as Record<string, unknown>, denial) as unknown as typeof entry } });
  });
}

function withGrant(current: Record<string, unknown>, denial: SandboxDenial): Record<string, unknown> {
  const sandbox = structuredClone((current.sandbox ?? {}) as Record<string, Record<string, string[]>>);
  const { section, field, value } = grantField(denial);
  const list = (sandbox[section] ??= {})[field] ?? [];
  if (!list.includes(value)) sandbox[section]![field] = [...list, value];
  return { ...current, sandbox };
}
