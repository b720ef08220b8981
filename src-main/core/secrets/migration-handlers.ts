import type { z } from 'zod';
import type { secretMigrationInvokes } from '../../../src-preload/contract/secret-migration';
import type { Clock, SecretVault } from '../ports';
import { findPlainSecrets, movePlainSecrets } from './plain-secret-migration';

type Invokes = typeof secretMigrationInvokes;
export type MigrationHandlers = {
  [K in keyof Invokes]: (input: z.output<Invokes[K]['input']>) => Promise<Invokes[K]['output']>;
};

export interface MigrationHandlerDeps {
  home: string;
  vault: SecretVault;
  /** Re-read the config and apply it, so servers reconnect with their secrets resolved from the keychain. */
  reload: () => Promise<unknown>;
  clock?: Clock;
}

/** The "move plain secrets into the keychain" calls; only names and keys cross, never values (S3). */
export function migrationHandlers(deps: MigrationHandlerDeps): MigrationHandlers {
  return {
    findPlainSecrets: () => findPlainSecrets(deps.home, deps.vault),
    movePlainSecrets: async (request) => {
      const moved = await movePlainSecrets(deps.home, deps.vault, request, deps.clock);
      await deps.reload();
      return moved;
    },
  };
}
