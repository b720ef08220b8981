/**
 * The one scrubber (SECURITY S7). Every secret value the process resolves is handed to it: each keychain
 * value read or written through the core's vault (`${secret:…}`, provider keys, OAuth tokens, PKCE
 * verifiers), each `${cmd:…}` value, and every env and header value under a secret-like name in a
 * server's expanded config (`*_TOKEN`, `*_KEY`, `*PASSWORD*`, Authorization and other credential
 * headers). The output edges — the logger, the event hub, the dispatch answer, the CLI's print and the
 * diagnostics bundle — pass everything through it, so a message written later cannot forget it, and a
 * server's stderr echoing its token is covered too.
 *
 * Short values: a value under MIN_SECRET_LENGTH characters is not looked for in text. Replacing "1",
 * "true" or "admin" everywhere would garble every line and hide nothing a reader could not guess;
 * such a value is still replaced where it sits under a secret-like name in a logged field.
 */
import type { SecretVault } from '../ports';
import type { CommandSecrets } from './command-secrets';

export const SCRUBBED = '[redacted]';
export const MIN_SECRET_LENGTH = 6;

/** Last words of a name that hold a credential: GITHUB_TOKEN, X-Api-Key, clientSecret, Proxy-Authorization, DB_PASSWORD, GH_PAT. */
const SECRET_WORDS = new Set(['token', 'key', 'apikey', 'secret', 'password', 'passwd', 'pwd', 'pass', 'pat', 'credential', 'credentials', 'cookie', 'authorization', 'auth', 'verifier', 'jwt', 'sessionid']);
/** The same words run together at the end of one word: MYSQLPASSWORD, GHTOKEN, OPENAIAPIKEY. */
const SECRET_SUFFIX = /(password|passwd|token|secret|apikey)$/;
/** An auth scheme before the credential in a header value; the word itself is no secret. */
const AUTH_SCHEME = /^\s*(bearer|basic|token|digest|apikey)\s+/i;
/** An unexpanded reference (`${GITHUB_TOKEN}` left as is): it names a secret, it holds none. */
const REFERENCE = /\$\{[^}]*\}/;

function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** True for a field, header, variable, query or flag name whose value is a credential. */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  const last = words.at(-1);
  if (last === undefined) return false;
  if (SECRET_WORDS.has(last) || SECRET_SUFFIX.test(last)) return true;
  return last === 'id' && words.at(-2) === 'session';
}

/** The arguments that hold a secret, by position: the value of a --token-like flag, inline (--key=…) or next. */
export function secretArgs(args: readonly string[]): Map<number, string> {
  const found = new Map<number, string>();
  args.forEach((arg, i) => {
    const inline = /^(--?[^=]+)=(.*)$/.exec(arg);
    if (inline && isSecretName(inline[1]!)) found.set(i, inline[2]!);
    const previous = args[i - 1];
    if (previous?.startsWith('-') && !previous.includes('=') && isSecretName(previous) && !arg.startsWith('-')) found.set(i, arg);
  });
  return found;
}

/** What the scrubber reads of a server's config: the maps that carry credentials. */
export type ConfigFields = { kind: 'stdio'; env: Record<string, string> } | { kind: 'remote'; headers: Record<string, string> };

/**
 * The credential values of a config: env and headers under secret-like names. Not its URL or arguments:
 * the server editor shows those as the person wrote them, and a value scrubbed there would be saved back
 * as the marker (env and header values reach the editor masked, and come back as "unchanged").
 */
export function configSecrets(config: ConfigFields): string[] {
  const map = config.kind === 'stdio' ? config.env : config.headers;
  return Object.entries(map).flatMap(([name, value]) => (isSecretName(name) ? [value] : []));
}

export class Scrubber {
  private readonly known = new Set<string>();
  /** Longest first, so a secret containing another is replaced whole; rebuilt after each new value. */
  private ordered: string[] | undefined;

  constructor(values: Iterable<string> = []) {
    for (const value of values) this.remember(value);
  }

  /** One secret value; a JSON document (an OAuth token set, a client) also gives up its secret-like fields. */
  remember(value: string | undefined): void {
    if (value === undefined) return;
    this.add(value);
    this.add(value.replace(AUTH_SCHEME, ''));
    const parsed = parseJson(value);
    if (parsed !== null && typeof parsed === 'object') this.rememberNamed(parsed);
  }

  /** The credential values of a server's expanded config (see configSecrets). */
  rememberConfig(config: ConfigFields): void {
    for (const value of configSecrets(config)) this.remember(value);
  }

  /** The vault as the core uses it: every value read or written through it is known from then on. */
  watch(vault: SecretVault): SecretVault {
    return {
      get: async (name) => {
        const value = await vault.get(name);
        this.remember(value);
        return value;
      },
      set: async (name, value) => {
        this.remember(value);
        await vault.set(name, value);
      },
      delete: (name) => vault.delete(name),
      list: () => vault.list(),
    };
  }

  /** A `${cmd:…}` reader whose every value is known from then on (a password manager's output is a secret). */
  watchCommands(commands: Pick<CommandSecrets, 'read'>): Pick<CommandSecrets, 'read'> {
    return {
      read: async (text) => {
        const value = await commands.read(text);
        this.remember(value);
        return value;
      },
    };
  }

  /** A scrubber that knows this one's values and more (the diagnostics bundle adds every keychain value). */
  with(values: Iterable<string>): Scrubber {
    const wider = new Scrubber(this.known);
    for (const value of values) wider.remember(value);
    return wider;
  }

  /** The text with every known secret replaced by SCRUBBED. */
  text(text: string): string {
    let out = text;
    for (const secret of this.secrets()) if (out.includes(secret)) out = out.split(secret).join(SCRUBBED);
    return out;
  }

  /** A copy with every string scrubbed (objects and arrays walked; keys kept). */
  value<T>(value: T): T {
    if (this.known.size === 0) return value;
    return this.walk(value, false) as T;
  }

  /** As value(), and a string under a secret-like name is replaced whatever it is (log fields: a header map, an env). */
  fields<T>(value: T): T {
    return this.walk(value, true) as T;
  }

  /** Copies only what holds a secret: an answer with nothing to replace (most tool results) comes back as it was. */
  private walk(value: unknown, byName: boolean): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) {
      const items = value.map((item) => this.walk(item, byName));
      return items.some((item, i) => item !== value[i]) ? items : value;
    }
    if (value instanceof Error) return this.text(value.message);
    // Plain data only: a Date, a byte array or a class instance passes as it is.
    if (value === null || typeof value !== 'object' || !isPlainObject(value)) return value;
    let changed = false;
    const entries = Object.entries(value).map(([key, item]): [string, unknown] => {
      const next = byName && typeof item === 'string' && item !== '' && isSecretName(key) && !REFERENCE.test(item) ? SCRUBBED : this.walk(item, byName);
      changed ||= next !== item;
      return [key, next];
    });
    return changed ? Object.fromEntries(entries) : value;
  }

  private rememberNamed(value: object): void {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string' && isSecretName(key)) this.remember(item);
      else if (item !== null && typeof item === 'object') this.rememberNamed(item);
    }
  }

  private add(value: string): void {
    const secret = value.trim();
    if (secret.length < MIN_SECRET_LENGTH || REFERENCE.test(secret) || this.known.has(secret)) return;
    // As it may appear: written out, in a URL, inside JSON text.
    for (const form of [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]) this.known.add(form);
    this.ordered = undefined;
  }

  private secrets(): string[] {
    return (this.ordered ??= [...this.known].sort((a, b) => b.length - a.length));
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function parseJson(value: string): unknown {
  if (!value.startsWith('{') && !value.startsWith('[')) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
