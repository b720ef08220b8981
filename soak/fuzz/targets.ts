import fc from 'fast-check';
import { expandServerConfig } from '../../src-main/core/config/expand';
import { parseConfigText } from '../../src-main/core/config/parse-config-file';
import type { ConfigSource, ServerConfig } from '../../src-main/core/config/server-config';
import { validateServerEntry } from '../../src-main/core/config/validate-server';
import { MemoryVault } from '../../src-main/core/secrets/memory-vault';
import { parseInstallLink } from '../../src-main/core/install/install-link';
import { parseClientMessage } from '../../src-main/host/ws-protocol';
import { INSTALL_FUZZ_TARGETS } from '../lib/install-fuzz';
import { configEntry, configText, expandable, installLink, referenceText, secretNames, variableEnv, wsFrame } from './arbitraries';

/** One parser under fuzz: inputs, and a judge that says what is wrong with its answer (undefined = right). */
export interface FuzzTarget<T = never> {
  name: string;
  inputs: fc.Arbitrary<T>;
  judge: (input: T) => string | undefined | Promise<string | undefined>;
}

const target = <T>(t: FuzzTarget<T>) => t as unknown as FuzzTarget<unknown>;

const source: ConfigSource = { path: '/home/soak/.config/Switchboard/servers.json', origin: 'switchboard', userWritten: true };
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Shown to a person as is: half of a surrogate pair would render as "�". */
const wellFormed = (text: string) => (LONE_SURROGATE.test(text) ? `message holds a broken character (half a surrogate pair): ${JSON.stringify(text)}` : undefined);

/** A problem from the config parser names the file, or the entry at fault; never an empty or broken text. */
function judgeProblems(problems: { file: string; server?: string; message: string }[]): string | undefined {
  for (const p of problems) {
    if (p.file !== source.path) return `problem names file ${p.file}`;
    const named = p.server === undefined ? p.message.startsWith(source.path) : p.message.startsWith(`server "${p.server}": `);
    if (!named) return `problem does not name ${p.server === undefined ? 'the file' : `server "${p.server}"`}: ${p.message}`;
    const broken = wellFormed(p.message);
    if (broken) return broken;
  }
  return undefined;
}

export const FUZZ_TARGETS: FuzzTarget<unknown>[] = [
  target({
    name: 'config parser: any text',
    inputs: configText(),
    judge: (text) => {
      const parsed = parseConfigText(text, source);
      if (parsed.invalid && parsed.servers.length > 0) return 'an invalid file still yielded servers';
      return judgeProblems(parsed.problems);
    },
  }),
  target({
    name: 'config parser: each entry a server or a problem',
    inputs: fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'a.b', 'x'.repeat(101))), configEntry(), { maxKeys: 6 }),
    judge: (entries) => {
      const text = JSON.stringify({ servers: entries });
      const parsed = parseConfigText(text, source);
      const problem = judgeProblems(parsed.problems);
      if (problem) return problem;
      // JSON.parse, as a person's editor reads the file: the names really in it.
      for (const name of Object.keys(JSON.parse(text).servers as object)) {
        const servers = parsed.servers.filter((s) => s.name === name).length;
        const problems = parsed.problems.filter((p) => p.server === name).length;
        if (servers + problems !== 1) return `entry ${JSON.stringify(name)} gave ${servers} servers and ${problems} problems (expected exactly one of them)`;
      }
      return undefined;
    },
  }),
  target({
    name: 'server entry validation: any value',
    inputs: fc.tuple(fc.string({ maxLength: 20 }), fc.oneof(configEntry(), fc.anything())),
    judge: ([name, raw]) => {
      const result = validateServerEntry(name, raw, source);
      if (result.ok) return result.server.name === name ? undefined : `accepted as ${result.server.name}`;
      if (!result.message.startsWith(`server "${name}": `)) return `message does not name the server: ${result.message}`;
      return wellFormed(result.message);
    },
  }),
  target({
    name: '${…} expansion: missing secrets, bad URLs',
    inputs: fc.tuple(expandable(), variableEnv(), secretNames()),
    judge: async ([{ config, referenced }, env, stored]) => {
      const vault = new MemoryVault();
      for (const name of stored) await vault.set(name, `value-of-${name}`);
      return judgeExpansion(config, env, vault, stored, referenced);
    },
  }),
  target({
    name: '${…} expansion: text and variables',
    inputs: fc.tuple(referenceText(), variableEnv()),
    judge: async ([{ text, expected }, env]) => {
      const config: ServerConfig = { kind: 'stdio', name: 'fuzz', command: text, args: [], env: {}, enabled: true, timeout: 1, toolTimeout: 1, approval: 'ask', source };
      const result = await expandServerConfig(config, env, new MemoryVault());
      if (!result.ok) return `failed: ${result.message}`;
      const got = result.config.kind === 'stdio' ? result.config.command : '';
      const want = expected(env);
      return got === want ? undefined : `expanded ${JSON.stringify(text)} to ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`;
    },
  }),
  target({
    name: 'web mode WebSocket message parser',
    inputs: wsFrame(),
    judge: (text) => judgeWsParse(text, parseClientMessage(text)),
  }),
  target({
    name: 'install link parser',
    inputs: installLink(),
    judge: (link) => {
      const parsed = parseInstallLink(link);
      if (!parsed.ok) {
        if (!INSTALL_LINK_ERRORS.some((pattern) => pattern.test(parsed.message))) return `unexpected error text: ${parsed.message}`;
        return wellFormed(parsed.message);
      }
      // SECURITY B3: whatever is accepted opens a form only, and never carries a ${…} reference.
      if (JSON.stringify(parsed.link).includes('${')) return `accepted a link carrying a \${…} reference: ${link.slice(0, 200)}`;
      return /^switchboard:\/\/install/i.test(link) ? undefined : `accepted ${link.slice(0, 200)}`;
    },
  }),
  ...INSTALL_FUZZ_TARGETS,
];

const INSTALL_LINK_ERRORS = [
  /^the install link is (empty|not a URL|over \d+ characters)$/,
  /^not a switchboard: link \(.*\)$/s,
  /^the link is not switchboard:\/\/install\?…$/,
  /^the install link (has an unknown parameter|gives) ".*"( twice)?$/s,
  /^the install link needs exactly one of catalog, registry or config$/,
  /^the install link's name ".*" is not a valid server name$/s,
  /^the install link names no valid (catalog entry|registry server)$/,
  /^the install link's config (is not base64url-encoded JSON|uses \$\{…\}, which a link may not \(it could read your secrets\))$/,
  /^the install link's config is invalid: server "linked": .+$/s,
];

async function judgeExpansion(config: ServerConfig, env: NodeJS.ProcessEnv, vault: MemoryVault, stored: string[], referenced: string[]): Promise<string | undefined> {
  const result = await expandServerConfig(config, env, vault);
  if (!result.ok) {
    const broken = wellFormed(result.message);
    if (broken) return broken;
    const missing = /^secret (\S+) is not set$/.exec(result.message);
    if (missing) return referenced.includes(missing[1]!) && !stored.includes(missing[1]!) ? undefined : `says secret ${missing[1]} is not set, but it was ${stored.includes(missing[1]!) ? 'stored' : 'never referenced'}`;
    if (config.kind === 'remote' && result.message === `server "${config.name}": "url" is not a valid http or https URL after expanding ${config.url}`) return undefined;
    return `unexpected failure: ${result.message}`;
  }
  if (referenced.some((name) => !stored.includes(name))) return `a reference to a missing secret expanded without an error`;
  for (const warning of result.warnings) {
    if (!warning.startsWith(`server "${config.name}": environment variable `)) return `warning does not name the server and variable: ${warning}`;
  }
  if (result.config.kind === 'remote' && !/^https?:$/.test(new URL(result.config.url).protocol)) return `accepted url ${result.config.url}`;
  return undefined;
}

const WS_ERRORS = [
  /^message is not valid JSON \(.+\)$/s,
  /^message must be a JSON object$/,
  /^message type ("[^]{0,50}"|missing) is unknown \(expected "invoke"\)$/,
  /^invoke needs an "id": a non-empty string of up to 100 characters or an integer$/,
  /^invoke needs a "method" string$/,
];

function judgeWsParse(text: string, parsed: ReturnType<typeof parseClientMessage>): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    raw = undefined;
  }
  const fields = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  if (parsed.ok) {
    const m = parsed.message;
    if (!fields || fields.type !== 'invoke' || m.id !== fields.id || m.method !== fields.method || JSON.stringify(m.payload) !== JSON.stringify(fields.payload)) return `accepted ${text.slice(0, 200)} as ${JSON.stringify(m).slice(0, 200)}`;
    return undefined;
  }
  if (!WS_ERRORS.some((pattern) => pattern.test(parsed.message))) return `unexpected error text: ${parsed.message}`;
  if (fields?.type === 'invoke' && typeof fields.method !== 'string' && parsed.id !== undefined && parsed.id !== fields.id) return `error names id ${String(parsed.id)}, the frame said ${String(fields.id)}`;
  return wellFormed(parsed.message);
}
