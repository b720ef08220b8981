import { z } from 'zod';
import { serverName } from '../../../src-preload/contract';
import { hasReference } from './expand';
import { parseSandboxFields } from './sandbox-config';
import { foreignNameProblem, isPersons, personOnlyFieldNote } from './provenance';
import {
  DEFAULT_CONNECT_TIMEOUT_S,
  DEFAULT_TOOL_TIMEOUT_S,
  type ConfigSource,
  type RemoteTransportChoice,
  type ServerConfig,
} from './server-config';

const stringMap = z.record(z.string(), z.string('must be a string'), 'must be an object of string values');

/** Field types of one entry; cross-field rules are checked after, with their own messages. */
const entrySchema = z.object({
  type: z.string('must be a string').optional(),
  command: z.string('must be a string').min(1, 'must not be empty').optional(),
  args: z.array(z.string('must be a string'), 'must be an array of strings').optional(),
  env: stringMap.optional(),
  cwd: z.string('must be a string').optional(),
  url: z.string('must be a string').optional(),
  headers: stringMap.optional(),
  transport: z.enum(['auto', 'streamable-http', 'sse'], 'must be "auto", "streamable-http" or "sse"').optional(),
  enabled: z.boolean('must be true or false').optional(),
  disabled: z.boolean('must be true or false').optional(),
  timeout: z.number('must be a number of seconds').positive('must be more than 0').optional(),
  toolTimeout: z.number('must be a number of seconds').positive('must be more than 0').optional(),
  approval: z.enum(['ask', 'auto'], 'must be "ask" or "auto"').optional(),
  prefix: z.string('must be a string').optional(),
});

/** `notes`: fields that were ignored, each with why (shown as a note on that server, never counted as a problem; it still loads). */
export type EntryResult = { ok: true; server: ServerConfig; notes?: string[] } | { ok: false; message: string };

const KNOWN_TYPES = ['stdio', 'http', 'sse', 'streamable-http', 'streamableHttp'];

/** Validate one raw entry from a config file. The message always names the server and the field. */
export function validateServerEntry(name: string, raw: unknown, source: ConfigSource): EntryResult {
  const label = `server "${name}"`;
  const nameCheck = serverName.safeParse(name);
  if (!nameCheck.success) return { ok: false, message: `${label}: ${nameCheck.error.issues[0]!.message}` };
  const foreignName = foreignNameProblem(name, source);
  if (foreignName) return { ok: false, message: foreignName };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return { ok: false, message: `${label}: must be an object` };
  }
  const parsed = entrySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, message: `${label}: "${fieldPath(issue.path)}" ${issue.message}` };
  }
  const entry = parsed.data;
  if (entry.type !== undefined && !KNOWN_TYPES.includes(entry.type)) {
    return { ok: false, message: `${label}: unknown type "${entry.type}" (expected stdio, http or sse)` };
  }
  if (entry.command !== undefined && entry.url !== undefined) {
    return { ok: false, message: `${label}: has both "command" and "url"; a server is either local (command) or remote (url)` };
  }
  if (entry.command === undefined && entry.url === undefined) {
    return { ok: false, message: `${label}: needs "command" (a local server) or "url" (a remote server)` };
  }
  const isStdioType = entry.type === 'stdio';
  if (entry.type !== undefined && isStdioType !== (entry.command !== undefined)) {
    const needs = isStdioType ? '"command"' : '"url"';
    return { ok: false, message: `${label}: type "${entry.type}" needs ${needs}` };
  }

  // What decides whether Switchboard asks, and which of the person's rules apply, comes only from the person (SECURITY V1).
  const persons = isPersons(source);
  const notes = persons ? [] : (['approval', 'prefix'] as const).filter((field) => entry[field] !== undefined).map((field) => personOnlyFieldNote(name, field, entry[field], source));
  const common = {
    name,
    enabled: entry.enabled ?? (entry.disabled === undefined ? true : !entry.disabled),
    timeout: entry.timeout ?? DEFAULT_CONNECT_TIMEOUT_S,
    toolTimeout: entry.toolTimeout ?? DEFAULT_TOOL_TIMEOUT_S,
    approval: (persons && entry.approval) || 'ask',
    ...(persons && entry.prefix !== undefined ? { prefix: entry.prefix } : {}),
    source,
  } as const;
  const withNotes = (server: ServerConfig): EntryResult => (notes.length > 0 ? { ok: true, server, notes } : { ok: true, server });

  if (entry.command !== undefined) {
    const sandbox = parseSandboxFields(raw);
    if (!sandbox.ok) return { ok: false, message: `${label}: "${sandbox.field}" ${sandbox.message}` };
    return withNotes({
      ...common,
      kind: 'stdio',
      command: entry.command,
      args: entry.args ?? [],
      env: entry.env ?? {},
      ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
      ...sandbox.fields,
    });
  }
  const url = entry.url!;
  // A URL built from ${...} references is checked after expansion, at connect time.
  if (hasReference(url)) {
    return withNotes({ ...common, kind: 'remote', url, headers: entry.headers ?? {}, transport: remoteTransport(entry.type, entry.transport) });
  }
  if (!URL.canParse(url)) return { ok: false, message: `${label}: "url" is not a valid URL: ${url}` };
  const protocol = new URL(url).protocol;
  if (protocol !== 'https:' && protocol !== 'http:') {
    return { ok: false, message: `${label}: "url" must be http or https, not ${protocol.replace(':', '')}` };
  }
  return withNotes({ ...common, kind: 'remote', url, headers: entry.headers ?? {}, transport: remoteTransport(entry.type, entry.transport) });
}

function remoteTransport(type: string | undefined, transport: RemoteTransportChoice | undefined): RemoteTransportChoice {
  if (transport) return transport;
  if (type === 'sse') return 'sse';
  if (type === 'http' || type === 'streamable-http' || type === 'streamableHttp') return 'streamable-http';
  return 'auto';
}

/** args[0], env.API_KEY: how a person would point at the field. */
function fieldPath(path: PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}
