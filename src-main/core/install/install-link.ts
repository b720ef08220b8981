import { serverName } from '../../../src-preload/contract/common';
import type { InstallLinkView, InstallRunsView } from '../../../src-preload/contract/install';
import { prototypeKeyPath } from '../config/config-writer';
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
  const checked = linkedEntry(name ?? 'linked', entry);
  if (!checked.ok) return checked;
  return { ok: true, link: { kind: 'config', entry: checked.entry, ...(name !== undefined ? { name } : {}) } };
}

/**
 * The fields the install form shows for a linked server, and so the only ones a link may give:
 * what it runs or reaches. Never `approval` (a link must not decide what Switchboard asks), nor
 * `prefix`, timeouts, `cwd` or `enabled`, which the form does not show (SECURITY V2).
 */
const SHOWN_FIELDS = new Set(['type', 'command', 'args', 'env', 'url', 'headers', 'transport']);

/** A link's config, checked again wherever it arrives (main re-checks what the renderer sends back). */
export function linkedEntry(label: string, entry: unknown): { ok: true; entry: InstallRunsView } | { ok: false; message: string } {
  const invalid = (why: string) => ({ ok: false as const, message: `the install link's config is invalid: server "${label}": ${why}` });
  if (JSON.stringify(entry ?? null).includes('${')) return fail('the install link\'s config uses ${…}, which a link may not (it could read your secrets)') as { ok: false; message: string };
  if (entry !== null && typeof entry === 'object' && !Array.isArray(entry)) {
    if (Object.hasOwn(entry, 'approval')) return invalid('"approval" is not something a link may set; you choose what Switchboard asks');
    const hidden = Object.keys(entry).filter((k) => !SHOWN_FIELDS.has(k));
    if (hidden.length) return invalid(`"${hidden.join('", "').slice(0, 200)}" ${hidden.length === 1 ? 'is a field' : 'are fields'} the install form does not show, so a link may not set ${hidden.length === 1 ? 'it' : 'them'}`);
    const polluting = prototypeKeyPath(entry);
    if (polluting) return invalid(`"${polluting}" is a key Switchboard never saves`);
  }
  const checked = validateServerEntry(label, entry, { path: 'install link', origin: 'switchboard', userWritten: false });
  if (!checked.ok) return { ok: false, message: `the install link's config is invalid: ${checked.message}` };
  const server = checked.server;
  if (server.kind === 'stdio') return { ok: true, entry: { command: server.command, args: server.args, env: server.env } };
  return { ok: true, entry: { url: server.url, headers: server.headers, transport: server.transport } };
}

