/** Secrets (names only ever leave main) and OAuth sign-in for remote servers. */
import { z } from 'zod';
import { empty, out, serverName } from './common';

/** A user secret's name: what `${secret:NAME}` refers to. OAuth entries live under "oauth/…" and never match. */
export const SECRET_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,128}$/;
export const SECRET_NAME_RULE = 'a secret name is 1 to 128 letters, digits, "_", "." or "-"';

export const secretName = z.string().regex(SECRET_NAME_PATTERN, SECRET_NAME_RULE);

export interface SecretList {
  names: string[];
}

/** Where a server's sign-in stands, as the UI may see it (never a token). */
export type SignInOutcome = { state: 'signed_in'; server: string } | { state: 'cancelled'; server: string };

const byServer = z.object({ name: serverName }).strict();

export const authInvokes = {
  listSecrets: { input: empty, output: out<SecretList>() },
  /** The value goes in once and never comes back out. */
  setSecret: { input: z.object({ name: secretName, value: z.string().min(1, 'the secret value is empty').max(65536, 'the secret value is over 64 KiB') }).strict(), output: out<null>() },
  deleteSecret: { input: z.object({ name: secretName }).strict(), output: out<null>() },
  signIn: { input: byServer, output: out<SignInOutcome>() },
  cancelSignIn: { input: byServer, output: out<null>() },
  signOut: { input: byServer, output: out<null>() },
  /** A client registered by hand with the server's authorization server: the ID, and a secret that goes to the keychain. */
  setOAuthClient: {
    input: z
      .object({
        name: serverName,
        clientId: z.string().min(1, 'the client ID is empty').max(2048, 'the client ID is over 2048 characters'),
        clientSecret: z.string().min(1, 'the client secret is empty').max(4096, 'the client secret is over 4096 characters').optional(),
      })
      .strict(),
    output: out<null>(),
  },
  deleteOAuthClient: { input: byServer, output: out<null>() },
} as const;

export const authEvents = {
  /** A sign-in flow started or ended for a server: the UI shows a cancel button while it runs. */
  signInChanged: out<{ server: string; running: boolean }>(),
} as const;
