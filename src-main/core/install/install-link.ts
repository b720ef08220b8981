import { serverName } from '../../../src-preload/contract/common';
import type { InstallLinkView } from '../../../src-preload/contract/install';
import { validateServerEntry } from '../config/validate-server';

/**
 * switchboard://install?… links (and web mode's /install?… page): they only ever open an install
 * form. Exactly one of catalog=<id>, registry=<name> or config=<base64url JSON entry>, plus an
 * optional name=. A config from a link may hold no ${…} reference at all: a link must not be able
 * to read a keychain secret or an environment variable into what it runs (SECURITY B3).
 */
export const MAX_LINK_LENGTH = 8192;

export type ParsedLink = { ok: true; link: InstallLinkView } | { ok: false; message: string };
const fail = (message: string): ParsedLink => ({ ok: false, message });

export function parseInstallLink(raw: string): ParsedLink {
  if (typeof raw !== 'string' || raw.length === 0) return fail('the install link is empty');
  if (raw.length > MAX_LINK_LENGTH) return fail(`the install link is over ${MAX_LINK_LENGTH} characters`);
  if (!URL.canParse(raw)) return fail('the install link is not a URL');
  const url = new URL(raw);
  if (url.protocol !== 'switchboard:') return fail(`not a switchboard: link (${url.protocol})`);
  if (url.host !== 'install' || (url.pathname !== '' && url.pathname !== '/')) return fail('the link is not switchboard://install?…');
  const params = url.searchParams;
  for (const key of new Set(params.keys())) {
    if (!['catalog', 'registry', 'config', 'name'].includes(key)) return fail(`the install link has an unknown parameter "${key}"`);
    if (params.getAll(key).length > 1) return fail(`the install link gives "${key}" twice`);
  }
  const given = (['catalog', 'registry', 'config'] as const).filter((k) => params.has(k));
  if (given.length !== 1) return fail('the install link needs exactly one of catalog, registry or config');
  const name = params.get('name') ?? undefined;
  if (name !== undefined && !serverName.safeParse(name).success) return fail(`the install link's name "${name.slice(0, 100)}" is not a valid server name`);
  const withName = name !== undefined ? { name } : {};
  const kind = given[0]!;
  const value = params.get(kind)!;
  if (kind === 'catalog') {
    if (!/^[a-z0-9-]{1,100}$/.test(value)) return fail('the install link names no valid catalog entry');
    return { ok: true, link: { kind, catalog: value, ...withName } };
  }
  if (kind === 'registry') {
    if (!/^[A-Za-z0-9.-]{1,100}\/[A-Za-z0-9._-]{1,100}$/.test(value)) return fail('the install link names no valid registry server');
    return { ok: true, link: { kind, registry: value, ...withName } };
  }
  return parseConfig(value, name);
}

function parseConfig(value: string, name: string | undefined): ParsedLink {
  let entry: unknown;
  try {
    entry = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return fail('the install link\'s config is not base64url-encoded JSON');
  }
  if (JSON.stringify(entry).includes('${')) return fail('the install link\'s config uses ${…}, which a link may not (it could read your secrets)');
  const label = name ?? 'linked';
  const checked = validateServerEntry(label, entry, { path: 'install link', origin: 'switchboard', userWritten: false });
  if (!checked.ok) return fail(`the install link's config is invalid: ${checked.message}`);
  return { ok: true, link: { kind: 'config', entry: entry as Record<string, unknown>, ...(name !== undefined ? { name } : {}) } };
}
