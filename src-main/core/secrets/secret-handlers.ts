import type { z } from 'zod';
import type { authInvokes } from '../../../src-preload/contract/auth';
import { AppFailure } from '../app-error';
import type { SecretVault } from '../ports';
import { checkSecretName, isUserSecretName } from './secret-name';

type SecretInvoke = 'listSecrets' | 'setSecret' | 'deleteSecret';
export type SecretHandlers = {
  [K in SecretInvoke]: (input: z.output<(typeof authInvokes)[K]['input']>) => Promise<(typeof authInvokes)[K]['output']>;
};

/**
 * The Secrets page's calls. Values go into the keychain and never come back out: there is no
 * "get" here, only names (SECURITY S1, S3). OAuth entries ("oauth/…") are not the user's to list or edit.
 */
export function secretHandlers(vault: SecretVault): SecretHandlers {
  return {
    listSecrets: async () => ({ names: (await vault.list()).filter(isUserSecretName) }),
    setSecret: async ({ name, value }) => {
      checkSecretName(name);
      if (value.length === 0) throw new AppFailure('invalid_input', `secret ${name}: the value is empty`);
      await vault.set(name, value);
      return null;
    },
    deleteSecret: async ({ name }) => {
      checkSecretName(name);
      if (!(await vault.delete(name))) throw new AppFailure('not_found', `no secret named ${name} in the OS keychain`);
      return null;
    },
  };
}
