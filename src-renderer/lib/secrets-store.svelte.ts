import type { z } from 'zod';
import type { AppError, Result } from '../../src-preload/contract/common';
import type { authEvents, authInvokes } from '../../src-preload/contract/auth';
import type { MovedSecrets, PlainSecretProposal, PlainSecretScan, secretMigrationInvokes } from '../../src-preload/contract/secret-migration';

type Call<T extends { input: z.ZodType; output: unknown }> = (input: z.input<T['input']>) => Promise<Result<T['output']>>;

/** The part of the Api the Secrets page uses (the full Api satisfies it). */
export interface SecretsApi {
  listSecrets: Call<typeof authInvokes.listSecrets>;
  setSecret: Call<typeof authInvokes.setSecret>;
  deleteSecret: Call<typeof authInvokes.deleteSecret>;
  findPlainSecrets: Call<typeof secretMigrationInvokes.findPlainSecrets>;
  movePlainSecrets: Call<typeof secretMigrationInvokes.movePlainSecrets>;
}

/** The part of the Api the sign-in buttons use. */
export interface AuthApi {
  signIn: Call<typeof authInvokes.signIn>;
  cancelSignIn: Call<typeof authInvokes.cancelSignIn>;
  signOut: Call<typeof authInvokes.signOut>;
  setOAuthClient: Call<typeof authInvokes.setOAuthClient>;
  deleteOAuthClient: Call<typeof authInvokes.deleteOAuthClient>;
  onSignInChanged: (listener: (payload: typeof authEvents.signInChanged) => void) => () => void;
}

/** Where the plain-secrets check stands; switched exhaustively by the panel. */
export type PlainSecretsState =
  | { kind: 'idle' }
  | { kind: 'scanning' }
  | { kind: 'found'; scan: PlainSecretScan }
  | { kind: 'moving'; scan: PlainSecretScan }
  | { kind: 'moved'; result: MovedSecrets }
  | { kind: 'failed'; error: AppError; scan?: PlainSecretScan };

/**
 * Secret names (values never come back from main), and the move of plain secrets out of servers.json.
 * A value passes through here once, on its way to setSecret, and is not kept.
 */
export class SecretsStore {
  names = $state.raw<string[] | undefined>(undefined);
  loadError = $state.raw<AppError | undefined>(undefined);
  /** Last failed add/replace/delete, shown verbatim until the next one succeeds. */
  actionError = $state.raw<AppError | undefined>(undefined);
  plain = $state.raw<PlainSecretsState>({ kind: 'idle' });

  constructor(private readonly api: SecretsApi) {}

  async load(): Promise<void> {
    const result = await this.api.listSecrets({});
    if (result.ok) {
      this.names = result.value.names;
      this.loadError = undefined;
    } else {
      this.loadError = result.error;
    }
  }

  /** Add or replace: the value is sent once; the caller has already dropped its copy. */
  async save(name: string, value: string): Promise<AppError | undefined> {
    const result = await this.api.setSecret({ name, value });
    this.actionError = result.ok ? undefined : result.error;
    if (result.ok) await this.load();
    return this.actionError;
  }

  async remove(name: string): Promise<void> {
    const result = await this.api.deleteSecret({ name });
    this.actionError = result.ok ? undefined : result.error;
    await this.load();
  }

  async findPlain(): Promise<void> {
    this.plain = { kind: 'scanning' };
    const result = await this.api.findPlainSecrets({});
    this.plain = result.ok ? { kind: 'found', scan: result.value } : { kind: 'failed', error: result.error };
  }

  async movePlain(scan: PlainSecretScan, items: PlainSecretProposal[], backup: boolean): Promise<void> {
    this.plain = { kind: 'moving', scan };
    const result = await this.api.movePlainSecrets({ items, backup });
    this.plain = result.ok ? { kind: 'moved', result: result.value } : { kind: 'failed', error: result.error, scan };
    await this.load();
  }
}
