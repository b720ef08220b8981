import fc from 'fast-check';
import type { ServerConfig } from '../../src-main/core/config/server-config';

const source = { path: '/home/soak/.config/Switchboard/servers.json', origin: 'switchboard' as const, userWritten: true };

/** Text that is often nearly JSON: random text, real JSON, JSON cut short, JSONC with comments. */
export function configText(): fc.Arbitrary<string> {
  const json = fc.json({ maxDepth: 4 });
  const serversJson = fc.dictionary(fc.string({ maxLength: 10 }), configEntry(), { maxKeys: 4 }).map((servers) => JSON.stringify({ servers }, null, 2));
  return fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    json,
    serversJson,
    fc.tuple(serversJson, fc.nat()).map(([text, cut]) => text.slice(0, cut % (text.length + 1))),
    serversJson.map((text) => `// servers\n${text.replace('{', '{ /* c */')}`),
    fc.tuple(fc.constantFrom('servers', 'mcpServers', 'disabled'), fc.jsonValue({ maxDepth: 3 })).map(([key, value]) => JSON.stringify({ [key]: value })),
  );
}

/** One server entry: plausible fields with plausible and wrong values. */
export function configEntry(): fc.Arbitrary<unknown> {
  const text = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('node', 'https://mcp.example.com/mcp', 'http://127.0.0.1:3000/mcp', 'ftp://x', 'javascript:alert(1)', '${URL}', '${HOST:-localhost}', 'http://${HOST}/mcp'));
  const wrong = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 }), fc.object({ maxDepth: 1 }));
  return fc.record(
    {
      type: fc.oneof(fc.constantFrom('stdio', 'http', 'sse', 'streamable-http', 'streamableHttp', 'grpc'), wrong),
      command: fc.oneof(text, wrong),
      args: fc.oneof(fc.array(text, { maxLength: 3 }), wrong),
      env: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), text, { maxKeys: 3 }), wrong),
      cwd: fc.oneof(text, wrong),
      url: fc.oneof(text, fc.webUrl(), wrong),
      headers: fc.oneof(fc.dictionary(fc.string({ maxLength: 8 }), text, { maxKeys: 3 }), wrong),
      transport: fc.oneof(fc.constantFrom('auto', 'streamable-http', 'sse', 'websocket'), wrong),
      enabled: fc.oneof(fc.boolean(), wrong),
      disabled: fc.oneof(fc.boolean(), wrong),
      timeout: fc.oneof(fc.double(), fc.integer({ min: -5, max: 600 }), wrong),
      toolTimeout: fc.oneof(fc.double(), fc.integer({ min: -5, max: 600 }), wrong),
      approval: fc.oneof(fc.constantFrom('ask', 'auto', 'never'), wrong),
      prefix: fc.oneof(text, wrong),
    },
    { requiredKeys: [] },
  );
}

const VARIABLES = ['HOME_DIR', 'TOKEN', 'EMPTY', 'UNSET', '_X1'];
const SECRETS = ['github-token', 'api.key', 'k_1', 'missing-secret'];

/** Pieces a `${…}` string is built of: references well and badly formed, and plain text around them. */
const piece = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('${', '}', '$', '{', ':-', '${}', '${1X}', '${ SPACE}', '${secret:}', '${secret:a b}'),
  fc.constantFrom(...VARIABLES).map((v) => `\${${v}}`),
  fc.tuple(fc.constantFrom(...VARIABLES), fc.string({ maxLength: 5 })).map(([v, d]) => `\${${v}:-${d.replace(/}/g, '')}}`),
  fc.constantFrom(...SECRETS).map((s) => `\${secret:${s}}`),
);
const referenceString = fc.array(piece, { maxLength: 5 }).map((parts) => parts.join(''));

/** Secret names a string refers to (well-formed references only, as the expander reads them). */
function secretsIn(values: string[]): string[] {
  return values.flatMap((v) => [...v.matchAll(/\$\{secret:([^}\s]+)\}/g)].map((m) => m[1]!));
}

/** A stdio or remote config whose launch fields are built of references, and the secrets it refers to. */
export function expandable(): fc.Arbitrary<{ config: ServerConfig; referenced: string[] }> {
  const common = { name: 'fuzz', enabled: true, timeout: 1, toolTimeout: 1, approval: 'ask' as const, source };
  const stdio = fc
    .record({ command: referenceString, args: fc.array(referenceString, { maxLength: 3 }), env: fc.dictionary(fc.constantFrom('A', 'B', '__proto__'), referenceString, { maxKeys: 2 }), cwd: fc.option(referenceString, { nil: undefined }) })
    .map(({ command, args, env, cwd }) => {
      const config: ServerConfig = { ...common, kind: 'stdio', command, args, env, ...(cwd !== undefined ? { cwd } : {}) };
      return { config, referenced: secretsIn([command, ...args, ...Object.values(env), ...(cwd !== undefined ? [cwd] : [])]) };
    });
  const remote = fc
    .record({ url: fc.oneof(referenceString, referenceString.map((r) => `https://${r}/mcp`), referenceString.map((r) => `http://127.0.0.1/${r}`)), headers: fc.dictionary(fc.constantFrom('X-A', 'Authorization'), referenceString, { maxKeys: 2 }) })
    .map(({ url, headers }) => {
      const config: ServerConfig = { ...common, kind: 'remote', url, headers, transport: 'auto' };
      return { config, referenced: secretsIn([url, ...Object.values(headers)]) };
    });
  return fc.oneof(stdio, remote);
}

/** An environment over the variables the references use: set, empty or missing. */
export function variableEnv(): fc.Arbitrary<NodeJS.ProcessEnv> {
  return fc.record(
    Object.fromEntries(VARIABLES.map((v) => [v, v === 'EMPTY' ? fc.constant('') : v === 'UNSET' ? fc.constant(undefined) : fc.string({ maxLength: 8 })])),
    { requiredKeys: [] },
  ) as fc.Arbitrary<NodeJS.ProcessEnv>;
}

export function secretNames(): fc.Arbitrary<string[]> {
  return fc.subarray(SECRETS.filter((s) => s !== 'missing-secret'));
}

/**
 * Text with only plain parts and variable references, and what it must expand to: plain text as
 * is, ${VAR} as its value (left as written when unset), ${VAR:-d} as its value or d when unset or empty.
 */
export function referenceText(): fc.Arbitrary<{ text: string; expected: (env: NodeJS.ProcessEnv) => string }> {
  const plain = fc.string({ maxLength: 8 }).filter((s) => !s.includes('$'));
  const part = fc.oneof(
    plain.map((p) => ({ text: p, value: () => p })),
    fc.constantFrom(...VARIABLES).map((v) => ({ text: `\${${v}}`, value: (env: NodeJS.ProcessEnv) => env[v] ?? `\${${v}}` })),
    fc.tuple(fc.constantFrom(...VARIABLES), plain.filter((d) => !d.includes('}'))).map(([v, d]) => ({ text: `\${${v}:-${d}}`, value: (env: NodeJS.ProcessEnv) => (env[v] ? env[v]! : d) })),
  );
  return fc.array(part, { maxLength: 5 }).map((parts) => ({ text: parts.map((p) => p.text).join(''), expected: (env) => parts.map((p) => p.value(env)).join('') }));
}

/** A WebSocket text frame: anything, JSON, and invoke messages right and wrong in each field. */
export function wsFrame(): fc.Arbitrary<string> {
  const id = fc.oneof(fc.string({ maxLength: 120 }), fc.integer(), fc.double(), fc.constant(null), fc.constant(Number.MAX_SAFE_INTEGER + 2), fc.boolean());
  const invoke = fc.record(
    { type: fc.oneof(fc.constant('invoke'), fc.string({ maxLength: 60 }), fc.integer()), id, method: fc.oneof(fc.constantFrom('listServers', 'runTool', ''), fc.string(), fc.integer()), payload: fc.jsonValue({ maxDepth: 2 }) },
    { requiredKeys: [] },
  );
  return fc.oneof(fc.string({ unit: 'binary', maxLength: 100 }), fc.json({ maxDepth: 2 }), invoke.map((m) => JSON.stringify(m)), fc.string({ unit: 'grapheme', maxLength: 60 }).map((t) => JSON.stringify({ type: `${'x'.repeat(49)}${t}` })));
}

/** Install links: any text, near-valid switchboard://install?… links, and configs of any JSON (SECURITY B3). */
export function installLink(): fc.Arbitrary<string> {
  const encoded = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');
  const param = fc.tuple(fc.constantFrom('catalog', 'registry', 'config', 'name', 'run'), fc.string({ maxLength: 60 })).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  return fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.array(param, { maxLength: 4 }).map((parts) => `switchboard://install?${parts.join('&')}`),
    fc.jsonValue({ maxDepth: 3 }).map((v) => `switchboard://install?config=${encoded(v)}`),
    fc.record({ command: fc.string({ maxLength: 30 }), args: fc.array(fc.string({ maxLength: 30 }), { maxLength: 3 }) }).map((e) => `switchboard://install?config=${encoded(e)}&name=linked`),
    fc.constantFrom('switchboard://install?catalog=memory', 'switchboard://install?registry=io.github.x%2Fy', 'SWITCHBOARD://install?catalog=git', 'switchboard://open?catalog=memory'),
  );
}
