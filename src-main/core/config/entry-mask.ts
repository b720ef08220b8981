import type { ServerEntry } from '../../../src-preload/contract/config';
import { MASKED_VALUE } from '../../../src-preload/contract/values';
import { AppFailure } from '../app-error';
import { hasReference } from './expand';

/** Fields whose values may be secrets written out in full (tokens in env, Authorization headers). */
const SECRET_MAPS = ['env', 'headers'] as const;

/**
 * The entry as the UI may see it: env and header keys stay, values are masked unless they are
 * ${...} references (which name a secret, never hold one). Everything else is shown as written,
 * because the person approving a server must see what runs.
 */
export function maskEntry(entry: ServerEntry): ServerEntry {
  const masked: ServerEntry = { ...entry };
  for (const field of SECRET_MAPS) {
    const map = entry[field];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    masked[field] = Object.fromEntries(
      Object.entries(map as Record<string, unknown>).map(([key, value]) => [key, typeof value === 'string' && hasReference(value) ? value : MASKED_VALUE]),
    );
  }
  return masked;
}

/** Put the stored values back where an update sent the mask ("unchanged"); a mask with nothing stored is an error. */
export function unmaskEntry(name: string, entry: ServerEntry, stored: ServerEntry | undefined): ServerEntry {
  const result: ServerEntry = { ...entry };
  for (const field of SECRET_MAPS) {
    const map = entry[field];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    const storedMap = (stored?.[field] ?? {}) as Record<string, unknown>;
    const restored: [string, unknown][] = [];
    for (const [key, value] of Object.entries(map as Record<string, unknown>)) {
      if (value !== MASKED_VALUE) {
        restored.push([key, value]);
        continue;
      }
      if (!Object.hasOwn(storedMap, key)) {
        throw new AppFailure('invalid_input', `server "${name}": "${field}.${key}" is masked but servers.json has no value for it; type the value`);
      }
      restored.push([key, storedMap[key]]);
    }
    result[field] = Object.fromEntries(restored);
  }
  return result;
}
