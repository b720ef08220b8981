import type { Api, AppError } from '../../src-preload/contract';
import type { MovedSecrets, PlainSecretProposal, PlainSecretScan } from '../../src-preload/contract/secret-migration';

/** The part of the Api the Secrets page uses. */
export type SecretsApi = Pick<Api, 'listSecrets' | 'setSecret' | 'deleteSecret' | 'findPlainSecrets' | 'movePlainSecrets'>;

/** The part of the Api the sign-in buttons use. */
export type AuthApi = Pick<Api, 'signIn' | 'cancelSignIn' | 'signOut' | 'setOAuthClient' | 'deleteOAuthClient' | 'onSignInChanged'>;

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
