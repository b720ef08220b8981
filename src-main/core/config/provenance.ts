import type { EntryRead } from '../../../src-preload/contract/servers';
import { referencesIn } from './expand';
import type { ConfigSource, ServerConfig } from './server-config';

/**
 * What a file the person did not write may not decide (SECURITY V1, A4): whether calls run unasked
 * (`approval`), where a server's tools are named (`prefix`), and a name that reads as another server's
 * namespace. Only Switchboard's own servers.json speaks for the person; everything else — a project's files,
 * another app's file, a bundle — is someone else's text.
 */
export const isPersons = (source: ConfigSource): boolean => source.origin === 'switchboard';

/** Fields only the person's own file may set; elsewhere they are ignored with a note saying so. */
export const PERSON_ONLY_FIELDS = {
  approval: 'only your own servers.json decides which calls run without asking; its tools ask',
  prefix: "only your own servers.json decides where a server's tools are named; its tools are named after the server",
} as const;

export function personOnlyFieldNote(server: string, field: keyof typeof PERSON_ONLY_FIELDS, value: unknown, source: ConfigSource): string {
  return `server "${server}": "${field}": ${JSON.stringify(value)} in ${source.path} is ignored: ${PERSON_ONLY_FIELDS[field]}`;
}

/** A name with "__" reads as `<server>__<tool>`, so its tools would look like another server's to every rule. */
export function foreignNameProblem(name: string, source: ConfigSource): string | undefined {
  if (isPersons(source) || !name.includes('__')) return undefined;
  return `server "${name}": a name with "__" reads as another server's tools (<server>__<tool>), which only your own servers.json may name; rename it in ${source.path}`;
}

/** What its tools are offered under: `<prefix or name>__<tool>`, with what LLM APIs reject replaced (tool-naming.ts). */
export const toolNamespace = (server: ServerConfig): string => (server.prefix ?? server.name).replace(/[^a-zA-Z0-9_-]/g, '_');

const TOOL_NAME_MAX = 64;

/**
 * Could a tool of one namespace be named exactly like a tool of the other? When one `ns__` begins the other,
 * a tool name can complete it; otherwise only when both agree on the first 64 characters (names are cut there).
 */
export function namespacesMeet(a: string, b: string): boolean {
  const [x, y] = [`${a}__`, `${b}__`];
  return x.startsWith(y) || y.startsWith(x) || x.slice(0, TOOL_NAME_MAX) === y.slice(0, TOOL_NAME_MAX);
}

/**
 * Servers from other files whose tools could take a name of one of the person's tools: that would put them
 * under the person's rules and grants, or rename the person's tool (a collision suffixes both) out from under a
 * deny rule. Each is refused with the person's server named.
 */
export function namespaceClashes(servers: ServerConfig[]): { server: ServerConfig; message: string }[] {
  const persons = servers.filter((s) => isPersons(s.source));
  const clashes: { server: ServerConfig; message: string }[] = [];
  for (const server of servers) {
    if (isPersons(server.source)) continue;
    const mine = persons.find((p) => namespacesMeet(toolNamespace(server), toolNamespace(p)));
    if (!mine) continue;
    clashes.push({
      server,
      message: `server "${server.name}" in ${server.source.path} was not loaded: its tools (${toolNamespace(server)}__…) could be named like those of your server "${mine.name}" (${toolNamespace(mine)}__…), and your rules for them would apply to it; rename it in that file`,
    });
  }
  return clashes;
}

/** Every `${…}` the entry reads, field by field, as the approval shows them (its hash covers the same text). */
export function entryReads(server: ServerConfig): EntryRead[] {
  const fields: [string, string][] =
    server.kind === 'stdio'
      ? [['command', server.command], ...server.args.map((a, i): [string, string] => [`args[${i}]`, a]), ...prefixed('env', server.env), ...(server.cwd === undefined ? [] : [['cwd', server.cwd] as [string, string]])]
      : [['url', server.url], ...prefixed('headers', server.headers)];
  return fields.flatMap(([field, value]) => {
    const found = referencesIn(value);
    return [
      ...found.variables.map((name): EntryRead => ({ field, kind: 'variable', name })),
      ...found.secrets.map((name): EntryRead => ({ field, kind: 'secret', name })),
      ...found.commands.map((name): EntryRead => ({ field, kind: 'command', name })),
    ];
  });
}

const prefixed = (field: string, map: Record<string, string>): [string, string][] => Object.entries(map).map(([key, value]) => [`${field}.${key}`, value]);
