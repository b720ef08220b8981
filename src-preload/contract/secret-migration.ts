/** Moving literal secrets out of servers.json into the OS keychain. Values never cross: only servers, keys and names. */
import { z } from 'zod';
import { empty, out, serverName } from './common';
import { secretName } from './auth';

export type PlainSecretField = 'env' | 'headers';

/** One literal value that looks secret, and the keychain name proposed for it (the value stays in main). */
export interface PlainSecretProposal {
  server: string;
  field: PlainSecretField;
  key: string;
  secretName: string;
}

export interface PlainSecretScan {
  /** The file scanned: Switchboard's own servers.json. */
  path: string;
  proposals: PlainSecretProposal[];
}

export interface MovedSecrets {
  /** Keychain names now holding the values, in the order moved. */
  moved: string[];
  /** Only when the user asked for a backup: servers.json.bak-<timestamp>, mode 0600. */
  backupPath?: string;
}

const moveItem = z
  .object({
    server: serverName,
    field: z.enum(['env', 'headers'], 'field must be "env" or "headers"'),
    key: z.string().min(1, 'the key is empty').max(256, 'the key is over 256 characters'),
    secretName,
  })
  .strict();

export const secretMigrationInvokes = {
  findPlainSecrets: { input: empty, output: out<PlainSecretScan>() },
  /** Stores each value in the keychain first, then rewrites servers.json with ${secret:NAME}; all or nothing. */
  movePlainSecrets: {
    input: z
      .object({
        items: z.array(moveItem).min(1, 'no secrets were picked to move').max(500, 'over 500 secrets picked at once'),
        backup: z.boolean('backup must be true or false'),
      })
      .strict(),
    output: out<MovedSecrets>(),
  },
} as const;
