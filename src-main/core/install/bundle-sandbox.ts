import { isAbsolute, join, resolve } from 'node:path';
import type { SandboxBlockView } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';
import type { PolicyState } from '../policy/policy-file';
import { sandboxRequired, SET_BY_ORGANIZATION } from '../policy/policy-rules';
import { isInside } from '../sandbox/sandbox-plan';
import type { BundleManifest, UserConfigValue } from './bundle-manifest';

/** Folders in the home that hold keys and tokens: no bundle setting may open them or a folder above them. */
const SECRET_PLACES = ['.ssh', '.gnupg', '.aws', '.kube', '.docker', '.password-store', '.local/share/keyrings', '.netrc'];

/**
 * A bundle runs sandboxed (SECURITY X1). The MCPB manifest (0.3) declares no network or permission needs,
 * so a bundle gets what the person picks for it and nothing else: each `directory` setting is a write grant,
 * each `file` setting a read grant, its own unpacked folder is readable (the sandbox plan's package grant),
 * and no network until the person allows a host. A picked folder that would open a secret place — `/`, the
 * home folder, Switchboard's data home, `~/.ssh` and the like — is refused naming the setting, never granted.
 */
export function bundleSandboxBlock(manifest: BundleManifest, values: Record<string, UserConfigValue>, defaults: Record<string, UserConfigValue | undefined>, home: string, dataHome: string): SandboxBlockView {
  const allowWrite: string[] = [];
  const allowRead: string[] = [];
  for (const [key, option] of Object.entries(manifest.user_config ?? {})) {
    if ((option.type !== 'directory' && option.type !== 'file') || option.sensitive) continue;
    const value = Object.hasOwn(values, key) ? values[key] : defaults[key];
    const paths = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v.trim() !== '');
    for (const path of paths) {
      const label = `"${option.title}" (${key})`;
      if (!isAbsolute(path) && !path.startsWith('~/')) throw new AppFailure('invalid_input', `${label} must be a full path, not "${path.slice(0, 200)}"`);
      const full = path.startsWith('~/') ? join(home, path.slice(2)) : resolve(path);
      const opens = [home, dataHome, ...SECRET_PLACES.map((p) => join(home, p))].find((secret) => isInside(secret, full) || (secret !== home && isInside(full, secret)));
      if (opens !== undefined || isInside(full, dataHome)) {
        throw new AppFailure('invalid_input', `${label} is ${path}, which would give the bundle ${opens === home || full === '/' ? 'your whole home folder' : 'a place that holds secrets'}; pick a folder inside it`);
      }
      // Written as the form showed it (SECURITY V2); the sandbox reads ~/ as the home folder.
      (option.type === 'directory' ? allowWrite : allowRead).push(path);
    }
  }
  const filesystem = { ...(allowWrite.length ? { allowWrite } : {}), ...(allowRead.length ? { allowRead } : {}) };
  return Object.keys(filesystem).length ? { filesystem } : {};
}

/** The sandbox fields a bundle's entry gets: on unless the person switched it off; off refused when the policy requires it. */
export function bundleSandboxFields(block: SandboxBlockView, wanted: boolean | undefined, policy: PolicyState): { sandboxEnabled: boolean; sandbox?: SandboxBlockView } {
  const required = sandboxRequired(policy);
  if (wanted === false && required) throw new AppFailure('invalid_input', `this bundle must run sandboxed (${SET_BY_ORGANIZATION})`);
  if (wanted === false) return { sandboxEnabled: false };
  return { sandboxEnabled: true, ...(Object.keys(block).length ? { sandbox: block } : {}) };
}
