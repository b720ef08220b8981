import { rmSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { zipSync } from 'fflate';
import { AppFailure } from '../../src-main/core/app-error';
import { BundleInstaller } from '../../src-main/core/install/bundle-installer';
import { parseInstallLink } from '../../src-main/core/install/install-link';
import { installOptions } from '../../src-main/core/install/registry-mapping';
import { ServerInstaller } from '../../src-main/core/install/server-installer';
import { UploadStaging } from '../../src-main/core/install/upload-staging';
import { MemoryVault } from '../../src-main/core/secrets/memory-vault';
import type { FuzzTarget } from '../fuzz/targets';

/**
 * Issue 21's property for the three install paths, through the real installers into a real file:
 * no `${` from a registry document, a bundle manifest or an install link survives into a written
 * entry; the only `${…}` written is a keychain reference the installer made for that server
 * (SECURITY V1). Document text must be refused by the mapping with its field named; when only the
 * final check catches it, the mapping let it through, and that is a failure too.
 */

/** What an attacker puts in any text field: references of every kind, our own marks, and the names the installer would make. */
const REFERENCES = ['${secret:openai-api-key}', '${cmd:id}', '${HOME}', '${env:PATH}', '${PATH:-x}', '${user_config.k}', '${__dirname}', '${', '${}', '$', '{', '}', '\uE000env.X\uE001', '${secret:install.fuzz.env.X}', '${secret:bundle.fuzz.k}', '{v}'];
const salted = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.constantFrom(...REFERENCES),
    fc.tuple(fc.string({ maxLength: 5 }), fc.constantFrom(...REFERENCES), fc.string({ maxLength: 5 })).map((parts) => parts.join('')),
  );
/** What a person types: anything but a reference of their own (the final check refuses those, by design). */
const typed = (): fc.Arbitrary<string> => fc.string({ maxLength: 12 }).filter((s) => !s.includes('$'));
const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** Exactly the references the installer may write: ${secret:<prefix>.<server>.…}. */
function strayReference(text: string, prefix: string): string | undefined {
  const own = new RegExp(String.raw`\$\{secret:${prefix}\.fuzz\.[A-Za-z0-9_.-]+\}`, 'g');
  const rest = text.replace(own, '');
  return rest.includes('${') ? rest.slice(rest.indexOf('${'), rest.indexOf('${') + 60) : undefined;
}
const caughtOnlyAtTheEnd = (error: unknown) => error instanceof AppFailure && error.message.includes('which an install may not write');
const unexpected = (error: unknown) => (error instanceof AppFailure ? undefined : `threw ${(error as Error)?.stack ?? String(error)}`.slice(0, 400));

/** One data home for every input (a fresh folder per input is slow on a loaded machine), emptied after each. */
let sharedHome: Promise<string> | undefined;
async function inHome<T>(work: (home: string) => Promise<T>): Promise<T> {
  sharedHome ??= mkdtemp(join(tmpdir(), 'sb-install-fuzz-')).then((home) => {
    process.once('exit', () => rmSync(home, { recursive: true, force: true }));
    return home;
  });
  const home = await sharedHome;
  try {
    return await work(home);
  } finally {
    for (const name of await readdir(home)) await rm(join(home, name), { recursive: true, force: true });
  }
}
const written = async (file: string): Promise<string> => readFile(file, 'utf8').catch(() => '');

function keyValue(): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({ name: salted(), value: optional(salted()), default: optional(salted()), isSecret: fc.boolean(), isRequired: fc.boolean(), choices: optional(fc.array(salted(), { maxLength: 2 })), variables: optional(fc.dictionary(fc.constantFrom('v', 'k'), fc.record({ default: optional(salted()), isSecret: fc.boolean() }), { maxKeys: 2 })) }, { requiredKeys: ['name'] });
}
function argument(): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({ type: fc.constantFrom('positional', 'named'), name: optional(salted()), value: optional(salted()), valueHint: optional(salted()), default: optional(salted()), choices: optional(fc.array(salted(), { maxLength: 2 })), format: optional(fc.constantFrom('boolean', 'string')) }, { requiredKeys: ['type'] });
}
/** A server.json with every text field an attacker controls. */
function serverJson(): fc.Arbitrary<Record<string, unknown>> {
  const pkg = fc.record({
    registryType: fc.constantFrom('npm', 'pypi', 'oci'),
    identifier: salted(),
    version: optional(salted()),
    transport: fc.constant({ type: 'stdio' }),
    environmentVariables: fc.array(keyValue(), { maxLength: 3 }),
    runtimeArguments: fc.array(argument(), { maxLength: 2 }),
    packageArguments: fc.array(argument(), { maxLength: 3 }),
  });
  const remote = fc.record({
    type: fc.constantFrom('streamable-http', 'sse'),
    url: fc.oneof(salted().map((s) => `https://a.example/${s}`), fc.constantFrom('https://a.example/{v}', 'https://a.example/${secret:x}')),
    variables: fc.dictionary(fc.constantFrom('v', 'k'), fc.record({ default: optional(salted()), isSecret: fc.boolean(), choices: optional(fc.array(salted(), { maxLength: 2 })) }), { maxKeys: 2 }),
    headers: fc.array(keyValue(), { maxLength: 3 }),
  });
  return fc.record({ packages: fc.array(pkg, { maxLength: 2 }), remotes: fc.array(remote, { maxLength: 1 }) }).map((doc) => ({ name: 'io.fuzz/server', description: 'fuzzed', ...doc }));
}

async function judgeRegistry([doc, typedValues]: [Record<string, unknown>, string[]]): Promise<string | undefined> {
  const options = installOptions(doc);
  if (!options.some((o) => o.usable && o.template)) return undefined;
  return inHome(async (home) => {
    const fetchDoc = async () => new Response(JSON.stringify({ server: doc }), { headers: { 'Content-Type': 'application/json' } });
    const installer = new ServerInstaller({ home, vault: new MemoryVault(), serverNames: () => [], reload: async () => undefined, staging: new UploadStaging(join(home, 'uploads')), fetch: fetchDoc });
    for (const option of options.filter((o) => o.usable && o.template)) {
      const values = Object.fromEntries(option.inputs.map((input, i) => [input.key, typedValues[i % Math.max(typedValues.length, 1)] ?? 'x']));
      try {
        await installer.install({ registry: 'io.fuzz/server' }, option.id, 'fuzz', values);
      } catch (error) {
        if (caughtOnlyAtTheEnd(error)) return `document text passed the mapping and only the final check caught it: ${(error as Error).message}`;
        const thrown = unexpected(error);
        if (thrown) return thrown;
      }
      const stray = strayReference(await written(join(home, 'servers.json')), 'install');
      if (stray) return `written to servers.json: ${stray}`;
      await rm(join(home, 'servers.json'), { force: true });
    }
    return undefined;
  });
}

/** A manifest the official schema accepts, its text fields from the attacker. */
function manifest(): fc.Arbitrary<Record<string, unknown>> {
  const option = fc.record({ type: fc.constantFrom('string', 'directory'), title: fc.constant('K'), description: fc.constant('a setting'), default: optional(salted()), sensitive: fc.boolean(), multiple: fc.constant(false) }, { requiredKeys: ['type', 'title', 'description'] });
  return fc
    .record({
      args: fc.array(fc.oneof(salted(), fc.constantFrom('${__dirname}/server/index.js', '${user_config.k}', '${user_config.j}')), { maxLength: 3 }),
      env: fc.dictionary(fc.oneof(fc.constantFrom('A', 'B'), salted()), fc.oneof(salted(), fc.constantFrom('${user_config.k}', '${user_config.j}')), { maxKeys: 2 }),
      userConfig: fc.record({ k: option, j: option }, { requiredKeys: [] }),
    })
    .map(({ args, env, userConfig }) => ({
      manifest_version: '0.3',
      name: 'fuzz-bundle',
      version: '1.0.0',
      description: 'fuzzed',
      author: { name: 'fuzz' },
      server: { type: 'node', entry_point: 'server/index.js', mcp_config: { command: 'node', args, env } },
      user_config: userConfig,
    }));
}

async function judgeBundle([doc, value, secret]: [Record<string, unknown>, string, string]): Promise<string | undefined> {
  return inHome(async (home) => {
    const file = join(home, 'fuzz.mcpb');
    const text = (s: string) => new TextEncoder().encode(s);
    await writeFile(file, zipSync({ 'manifest.json': text(JSON.stringify(doc)), 'server/index.js': text('process.stdin.resume()') }));
    const options = (doc.user_config ?? {}) as Record<string, { sensitive?: boolean }>;
    const values = Object.fromEntries(Object.keys(options).filter((k) => !options[k]!.sensitive).map((k) => [k, value]));
    const secrets = Object.fromEntries(Object.keys(options).filter((k) => options[k]!.sensitive).map((k) => [k, secret || 's']));
    const installer = new BundleInstaller({ home, vault: new MemoryVault(), serverNames: () => [], reload: async () => undefined, revokeTrust: async () => undefined, platform: 'linux' });
    try {
      await installer.install(file, { name: 'fuzz', values, secrets });
    } catch (error) {
      if (caughtOnlyAtTheEnd(error)) return `manifest text passed the plan and only the final check caught it: ${(error as Error).message}`;
      const thrown = unexpected(error);
      if (thrown) return thrown;
    }
    const stray = strayReference(await written(join(home, 'bundles.json')), 'bundle');
    return stray ? `written to bundles.json: ${stray}` : undefined;
  });
}

/** A config link with fields the form does not show, references and prototype keys among what it runs. */
function linkConfig(): fc.Arbitrary<string> {
  const map = fc.dictionary(fc.oneof(salted(), fc.constantFrom('__proto__', 'constructor')), salted(), { maxKeys: 2 });
  const entry = fc.record(
    { command: salted(), args: fc.array(salted(), { maxLength: 3 }), env: map, url: fc.oneof(salted(), fc.constant('https://a.example/mcp')), headers: map, type: fc.constantFrom('stdio', 'http', 'sse'), approval: fc.constantFrom('auto', 'ask'), prefix: salted(), timeout: fc.nat(), cwd: salted() },
    { requiredKeys: [] },
  );
  return fc.tuple(entry, optional(fc.constantFrom('linked', 'x'))).map(([e, name]) => `switchboard://install?config=${Buffer.from(JSON.stringify(e)).toString('base64url')}${name ? `&name=${name}` : ''}`);
}

async function judgeLink(link: string): Promise<string | undefined> {
  const parsed = parseInstallLink(link);
  if (!parsed.ok || parsed.link.kind !== 'config') return undefined;
  const shown = parsed.link.entry;
  return inHome(async (home) => {
    const installer = new ServerInstaller({ home, vault: new MemoryVault(), serverNames: () => [], reload: async () => undefined, staging: new UploadStaging(join(home, 'uploads')) });
    try {
      await installer.installLinked('fuzz', { ...shown });
    } catch (error) {
      if (caughtOnlyAtTheEnd(error)) return `link text passed the parser and only the final check caught it: ${(error as Error).message}`;
      return unexpected(error);
    }
    const file = await written(join(home, 'servers.json'));
    const entry = (JSON.parse(file) as { servers: Record<string, Record<string, unknown>> }).servers.fuzz ?? {};
    const hidden = Object.keys(entry).filter((k) => !['command', 'args', 'env', 'url', 'headers', 'transport'].includes(k));
    if (hidden.length) return `wrote fields the form does not show: ${hidden.join(', ')}`;
    return file.includes('${') ? `written to servers.json: ${file.slice(file.indexOf('${'), file.indexOf('${') + 60)}` : undefined;
  });
}

const target = <T>(t: FuzzTarget<T>) => t as unknown as FuzzTarget<unknown>;

export const INSTALL_FUZZ_TARGETS: FuzzTarget<unknown>[] = [
  target({ name: 'registry install: no ${ from a document is written', inputs: fc.tuple(serverJson(), fc.array(typed(), { maxLength: 4 })), judge: judgeRegistry }),
  target({ name: 'bundle install: no ${ from a manifest is written', inputs: fc.tuple(manifest(), typed(), typed()), judge: judgeBundle }),
  target({ name: 'install link: no ${ and no hidden field is written', inputs: linkConfig(), judge: judgeLink }),
];
