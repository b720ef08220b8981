import type { Api } from '../../../src-preload/contract';

/** The secret-name rule of the contract (auth.ts): 1 to 128 letters, digits, "_", "." or "-". */
const SECRET_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
/** "Bearer abc" keeps its scheme in the config; only "abc" is the secret. */
const AUTH_SCHEME = /^(Bearer|Basic|Token)(\s+)(\S.*)$/i;

export type StoredValue = { ok: true; reference: string } | { ok: false; message: string };
/** Puts a literal value in the keychain and returns what the field should hold instead. */
export type StoreValueInKeychain = (server: string, key: string, value: string) => Promise<StoredValue>;

/** "<server>-<KEY>" made to fit the secret-name rule. */
export function suggestSecretName(server: string, key: string): string {
  const base = `${server || 'server'}-${key || 'value'}`.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 120);
  return SECRET_NAME.test(base) ? base : 'secret';
}

/** The first of base, base-2, base-3 … not already in the keychain (setSecret would overwrite it). */
export function freeSecretName(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

/** A value worth offering to move: literal, not empty, not already a ${…} reference. */
export const isLiteralValue = (value: string): boolean => value.trim() !== '' && !value.includes('${');

export function keychainStoreFor(api: Api): StoreValueInKeychain {
  return async (server, key, value) => {
    const listed = await api.listSecrets({});
    if (!listed.ok) return { ok: false, message: listed.error.message };
    const name = freeSecretName(suggestSecretName(server, key), new Set(listed.value.names));
    const scheme = AUTH_SCHEME.exec(value);
    const stored = await api.setSecret({ name, value: scheme ? scheme[3]! : value });
    if (!stored.ok) return { ok: false, message: stored.error.message };
    const reference = `\${secret:${name}}`;
    return { ok: true, reference: scheme ? `${scheme[1]}${scheme[2]}${reference}` : reference };
  };
}
