import { SECRET_NAME_PATTERN, SECRET_NAME_RULE } from '../../../src-preload/contract/auth';
import { AppFailure } from '../app-error';

/** Keychain entries the user owns, as opposed to "oauth/…" entries the sign-in flow keeps. */
export const isUserSecretName = (name: string): boolean => SECRET_NAME_PATTERN.test(name);

export function checkSecretName(name: string): void {
  if (!isUserSecretName(name)) throw new AppFailure('invalid_input', `secret name ${JSON.stringify(name)} is not valid: ${SECRET_NAME_RULE}`);
}
