import { SECRET_NAME_PATTERN, SECRET_NAME_RULE } from '../../../src-preload/contract/auth';
import { AppFailure } from '../app-error';
import type { ConfigSource } from '../config/server-config';

/** Keychain entries the user owns, as opposed to "oauth/…" entries the sign-in flow keeps. */
export const isUserSecretName = (name: string): boolean => SECRET_NAME_PATTERN.test(name);

export function checkSecretName(name: string): void {
  if (!isUserSecretName(name)) throw new AppFailure('invalid_input', `secret name ${JSON.stringify(name)} is not valid: ${SECRET_NAME_RULE}`);
}

/** The chat providers' API keys (chat/providers/provider-settings.ts apiKeyName; a test keeps the two in step). */
export const PROVIDER_KEY_NAMES: readonly string[] = ['anthropic-api-key', 'openai-api-key'];

/** Entries Switchboard keeps for itself: OAuth tokens, registrations and client secrets ("oauth/…"), provider keys. */
export const isInternalSecretName = (name: string): boolean => !isUserSecretName(name) || PROVIDER_KEY_NAMES.includes(name);

/**
 * May a server entry from `source` read the keychain secret `name` through `${secret:NAME}`? Undefined when it
 * may, else why not (SECURITY V1). Only the person's own servers.json, and only names the person created: never
 * Switchboard's internal entries. A bundle's entry reads only the secrets its install stored for it
 * (`bundle.<server>.…`). A project's or another app's file reads none: anyone can write those.
 */
export function secretReferenceProblem(name: string, source: ConfigSource, server: string): string | undefined {
  if (isInternalSecretName(name)) return `"${name}" is one of Switchboard's own keychain entries (sign-in tokens, provider keys), which no server entry may read`;
  if (source.origin === 'switchboard') return undefined;
  if (source.origin === 'bundle') return name.startsWith(`bundle.${server}.`) ? undefined : `a bundle's server reads only the secrets its install stored for it (bundle.${server}.…)`;
  return `${source.path} is not your own servers.json, and only that file may read your keychain; use an environment variable (the approval shows it), or add the server in Switchboard`;
}
