/**
 * The add/edit form's model and its conversion to and from a server entry as written in JSON.
 * The core validates every entry again and its message is the authority; the checks here only
 * catch what the form itself can see (an empty command, a timeout that is not a number).
 */
import type { ServerEntry } from '../../../src-preload/contract';
import { MASKED_VALUE } from '../../../src-preload/contract/values';

export type ServerKind = 'local' | 'remote';
export type RemoteTransport = 'auto' | 'streamable-http' | 'sse';
export type Approval = 'ask' | 'auto';

/** One env or header row. `stored` means the value stays as stored (it came back masked) unless typed anew. */
export interface KeyValueRow {
  key: string;
  value: string;
  stored: boolean;
}

export interface ServerFormModel {
  name: string;
  kind: ServerKind;
  command: string;
  args: string[];
  env: KeyValueRow[];
  cwd: string;
  url: string;
  transport: RemoteTransport;
  headers: KeyValueRow[];
  enabled: boolean;
  /** Seconds as typed; empty means the default. */
  timeout: string;
  toolTimeout: string;
  approval: Approval;
  /** Fields the form does not edit (e.g. "prefix"), written back unchanged. */
  extra: ServerEntry;
}

/** Fields the form owns; everything else in an entry is carried in `extra`. */
const FORM_FIELDS = new Set(['type', 'command', 'args', 'env', 'cwd', 'url', 'transport', 'headers', 'enabled', 'disabled', 'timeout', 'toolTimeout', 'approval']);

export function emptyForm(kind: ServerKind = 'local'): ServerFormModel {
  return {
    name: '',
    kind,
    command: '',
    args: [],
    env: [],
    cwd: '',
    url: '',
    transport: 'auto',
    headers: [],
    enabled: true,
    timeout: '',
    toolTimeout: '',
    approval: 'ask',
    extra: {},
  };
}

/** The form for an entry from getServerEntry (env and header values arrive masked). */
export function formFromEntry(name: string, entry: ServerEntry): ServerFormModel {
  const form = emptyForm(typeof entry.url === 'string' && typeof entry.command !== 'string' ? 'remote' : 'local');
  form.name = name;
  form.command = stringOr(entry.command, '');
  form.args = Array.isArray(entry.args) ? entry.args.map((a) => String(a)) : [];
  form.env = rowsFrom(entry.env);
  form.cwd = stringOr(entry.cwd, '');
  form.url = stringOr(entry.url, '');
  form.transport = transportOf(entry);
  form.headers = rowsFrom(entry.headers);
  form.enabled = typeof entry.enabled === 'boolean' ? entry.enabled : entry.disabled !== true;
  form.timeout = typeof entry.timeout === 'number' ? String(entry.timeout) : '';
  form.toolTimeout = typeof entry.toolTimeout === 'number' ? String(entry.toolTimeout) : '';
  form.approval = entry.approval === 'auto' ? 'auto' : 'ask';
  form.extra = Object.fromEntries(Object.entries(entry).filter(([key]) => !FORM_FIELDS.has(key)));
  return form;
}

export type FormCheck = { ok: true; entry: ServerEntry } | { ok: false; field: keyof ServerFormModel; message: string };

/** The entry to send to addServer / updateServer, or the first thing the form can already tell is wrong. */
export function entryFromForm(form: ServerFormModel): FormCheck {
  const entry: ServerEntry = { ...form.extra };
  if (form.kind === 'local') {
    if (form.command.trim() === '') return { ok: false, field: 'command', message: 'the command is empty' };
    entry.command = form.command.trim();
    if (form.args.length > 0) entry.args = [...form.args];
    const env = mapFrom(form.env, 'env');
    if (!env.ok) return { ok: false, field: 'env', message: env.message };
    if (env.map) entry.env = env.map;
    if (form.cwd.trim() !== '') entry.cwd = form.cwd.trim();
  } else {
    if (form.url.trim() === '') return { ok: false, field: 'url', message: 'the URL is empty' };
    entry.url = form.url.trim();
    if (form.transport !== 'auto') entry.transport = form.transport;
    const headers = mapFrom(form.headers, 'header');
    if (!headers.ok) return { ok: false, field: 'headers', message: headers.message };
    if (headers.map) entry.headers = headers.map;
  }
  if (!form.enabled) entry.enabled = false;
  for (const field of ['timeout', 'toolTimeout'] as const) {
    const text = form[field].trim();
    if (text === '') continue;
    const seconds = Number(text);
    if (!Number.isFinite(seconds) || seconds <= 0) return { ok: false, field, message: `${field === 'timeout' ? 'the connect timeout' : 'the tool timeout'} must be a number of seconds above 0` };
    entry[field] = seconds;
  }
  if (form.approval !== 'ask') entry.approval = form.approval;
  return { ok: true, entry };
}

function mapFrom(rows: KeyValueRow[], what: 'env' | 'header'): { ok: true; map?: Record<string, string> } | { ok: false; message: string } {
  const map: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    if (key === '' && row.value === '') continue; // an empty row left over
    if (key === '') return { ok: false, message: `${what === 'env' ? 'an environment variable' : 'a header'} has a value but no name` };
    if (Object.hasOwn(map, key)) return { ok: false, message: `${what === 'env' ? 'environment variable' : 'header'} "${key}" is given twice` };
    map[key] = row.stored && row.value === '' ? MASKED_VALUE : row.value;
  }
  return Object.keys(map).length === 0 ? { ok: true } : { ok: true, map };
}

function rowsFrom(value: unknown): KeyValueRow[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([key, v]) => {
    const text = typeof v === 'string' ? v : String(v);
    return text === MASKED_VALUE ? { key, value: '', stored: true } : { key, value: text, stored: false };
  });
}

function transportOf(entry: ServerEntry): RemoteTransport {
  if (entry.transport === 'sse' || entry.transport === 'streamable-http' || entry.transport === 'auto') return entry.transport;
  if (entry.type === 'sse') return 'sse';
  if (entry.type === 'http' || entry.type === 'streamable-http' || entry.type === 'streamableHttp') return 'streamable-http';
  return 'auto';
}

const stringOr = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
