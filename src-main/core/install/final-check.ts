import { AppFailure } from '../app-error';
import { prototypeKeyPath } from '../config/config-writer';

/**
 * The last look at an entry before any install path writes it, whatever built it (registry,
 * catalog, bundle, link): the only `${…}` it may hold is a `${secret:NAME}` reference the installer
 * itself just made for this server's own keychain values. Anything else — `${cmd:…}`, another
 * secret (Switchboard's OAuth and provider entries above all), an environment variable — would be
 * expanded at connect time from text the person never wrote (SECURITY V1). Keys that JavaScript
 * treats as an object's prototype are refused too: a parsed `__proto__` key is an own key in the
 * JSON but becomes the prototype when the entry is copied (SECURITY V1).
 */
const OWN_SECRET = /^\$\{secret:([^}\s]+)\}/;

const refuse = (server: string, field: string, why: string): AppFailure =>
  new AppFailure('invalid_input', `server "${server}": ${field} ${why}; nothing was installed`);

/** Throws, naming the field, unless every `${` in the entry is one of `ownSecrets` as `${secret:NAME}`. */
export function checkFinishedEntry(server: string, entry: unknown, ownSecrets: ReadonlySet<string> = new Set()): void {
  const polluting = prototypeKeyPath(entry);
  if (polluting) throw refuse(server, `"${polluting}"`, `is a key Switchboard never saves (it would change the entry's prototype)`);
  walk(server, entry, '', ownSecrets);
}

function walk(server: string, value: unknown, field: string, ownSecrets: ReadonlySet<string>): void {
  if (typeof value === 'string') return checkText(server, value, field || 'the entry', ownSecrets);
  if (Array.isArray(value)) return value.forEach((item, i) => walk(server, item, `${field}[${i}]`, ownSecrets));
  if (value === null || typeof value !== 'object') return;
  for (const key of Object.keys(value)) {
    const at = field ? `${field}.${key}` : key;
    checkText(server, key, `the key "${at}"`, new Set());
    walk(server, (value as Record<string, unknown>)[key], at, ownSecrets);
  }
}

function checkText(server: string, text: string, field: string, ownSecrets: ReadonlySet<string>): void {
  for (let at = text.indexOf('${'); at !== -1; at = text.indexOf('${', at + 1)) {
    const own = OWN_SECRET.exec(text.slice(at));
    if (own && ownSecrets.has(own[1]!)) continue;
    const shown = text.slice(at, text.indexOf('}', at) === -1 ? at + 40 : Math.min(text.indexOf('}', at) + 1, at + 80));
    throw refuse(server, field.startsWith('the key') ? field : `"${field}"`, `holds ${shown}, which an install may not write (only the keychain references Switchboard makes for this server's own values)`);
  }
}
