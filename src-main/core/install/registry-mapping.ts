import type { InstallInputView, InstallOptionView, InstallRunsView } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';

/**
 * From an MCP Registry server.json to config entries Switchboard can run: npm → npx, pypi → uvx,
 * oci → docker, mcpb → a download checked against fileSha256, remotes → a URL with headers.
 * Anything else (nuget, cargo, a local HTTP package, an unknown field value) is listed as not
 * installable with the reason, never guessed. Registry text may not carry "${": Switchboard would
 * expand it, so a document could otherwise name a keychain secret of another server (SECURITY B2).
 */

/** Where an input's value lands once the person typed it: a placeholder in the entry. */
const mark = (key: string): string => `\uE000${key}\uE001`;
const MARK = /\uE000([^\uE001]*)\uE001/g;

/** The entry with a placeholder where each input goes. */
export type EntryTemplate = InstallRunsView;

export interface InstallOption extends Omit<InstallOptionView, 'runs'> {
  template?: EntryTemplate;
}

/** The option as the UI sees it: what it runs, inputs as {key}. */
export function optionView({ template, ...rest }: InstallOption): InstallOptionView {
  return template ? { ...rest, runs: previewTemplate(template) } : rest;
}

/** The value an input takes: what the form sent (even empty: the person cleared the default they saw), else its default. */
const valueOf = (spec: InstallInputView, values: Record<string, string>): string => (Object.hasOwn(values, spec.key) ? values[spec.key]! : (spec.default ?? ''));

/** Every required input has a value. */
export function checkInputs(inputs: InstallInputView[], values: Record<string, string>): void {
  for (const spec of inputs) {
    if (spec.required && valueOf(spec, values) === '') throw new AppFailure('invalid_input', `"${spec.label}" is required`);
  }
  for (const key of Object.keys(values)) {
    if (!inputs.some((i) => i.key === key)) throw new AppFailure('invalid_input', `this install asks for no "${key}"`);
  }
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

class Unusable extends Error {}

/** Every way the document offers to run the server, usable or not. */
export function installOptions(serverJson: unknown): InstallOption[] {
  const server = obj(serverJson);
  const options: InstallOption[] = [];
  list(server.packages).forEach((pkg, i) => options.push(guard(`package:${i}`, packageLabel(pkg), () => fromPackage(pkg))));
  list(server.remotes).forEach((remote, i) => options.push(guard(`remote:${i}`, `remote ${str(remote.type) ?? '?'} ${str(remote.url) ?? ''}`.trim(), () => fromRemote(remote))));
  return options;
}

function guard(id: string, label: string, build: () => Omit<InstallOption, 'id' | 'label' | 'usable'>): InstallOption {
  try {
    return { id, label, usable: true, ...build() };
  } catch (error) {
    if (!(error instanceof Unusable)) throw error;
    return { id, label, usable: false, reason: error.message, inputs: [] };
  }
}

function packageLabel(pkg: Json): string {
  return [str(pkg.registryType) ?? 'unknown', str(pkg.identifier) ?? '', str(pkg.version) ?? ''].filter(Boolean).join(' ');
}

const RUNNERS: Record<string, { command: string; spec: (id: string, version?: string) => string[] }> = {
  npm: { command: 'npx', spec: (id, v) => ['-y', v ? `${id}@${v}` : id] },
  pypi: { command: 'uvx', spec: (id, v) => [v ? `${id}==${v}` : id] },
};

function fromPackage(pkg: Json): Omit<InstallOption, 'id' | 'label' | 'usable'> {
  const type = str(pkg.registryType);
  const identifier = str(pkg.identifier);
  if (!identifier) throw new Unusable('the package has no identifier');
  const transport = str(obj(pkg.transport).type) ?? 'stdio';
  if (transport !== 'stdio') throw new Unusable(`the package runs as a local ${transport} service; start it yourself and add its URL`);
  noReference('identifier', identifier);
  const inputs: InstallInputView[] = [];
  const env = keyValues(list(pkg.environmentVariables), 'env', inputs);
  const runtime = list(pkg.runtimeArguments).flatMap((a, i) => argument(a, `runtimeArguments[${i}]`, inputs));
  const packageArgs = list(pkg.packageArguments).flatMap((a, i) => argument(a, `packageArguments[${i}]`, inputs));
  if (type === 'mcpb') {
    const sha256 = str(pkg.fileSha256);
    if (!sha256 || !/^[0-9a-f]{64}$/i.test(sha256)) throw new Unusable('the mcpb package has no valid fileSha256, so its download cannot be checked');
    if (!URL.canParse(identifier) || new URL(identifier).protocol !== 'https:') throw new Unusable(`the mcpb package is not an https URL: ${identifier}`);
    return { inputs: [], download: { url: identifier, sha256: sha256.toLowerCase() } };
  }
  if (type === 'oci') {
    // Docker needs each variable named with -e to pass it into the container.
    const args = runtime.length ? runtime : ['run', '-i', '--rm', ...Object.keys(env).flatMap((k) => ['-e', k]), identifier];
    return { inputs, template: { command: 'docker', args: [...args, ...packageArgs], env } };
  }
  const runner = type ? RUNNERS[type] : undefined;
  if (!runner) throw new Unusable(`${type ?? 'unknown'} packages are not installed by Switchboard (it runs npm, pypi, oci and mcpb)`);
  const version = str(pkg.version);
  if (version) noReference('version', version);
  return { inputs, template: { command: runner.command, args: [...runtime, ...runner.spec(identifier, version), ...packageArgs], env } };
}

function fromRemote(remote: Json): Omit<InstallOption, 'id' | 'label' | 'usable'> {
  const type = str(remote.type);
  if (type !== 'streamable-http' && type !== 'sse') throw new Unusable(`remote type "${type ?? ''}" is not one Switchboard speaks (streamable-http or sse)`);
  const url = str(remote.url) ?? '';
  const inputs: InstallInputView[] = [];
  const filled = withVariables(url, obj(remote.variables), 'url', inputs);
  const plain = filled.replace(MARK, 'x');
  if (!URL.canParse(plain) || !['https:', 'http:'].includes(new URL(plain).protocol)) throw new Unusable(`the remote URL is not http or https: ${url}`);
  const headers = keyValues(list(remote.headers), 'header', inputs);
  return { inputs, template: { url: filled, headers, transport: type } };
}

/** Environment variables or headers: a fixed value, or an input the person fills (secrets to the keychain). */
function keyValues(items: Json[], kind: 'env' | 'header', inputs: InstallInputView[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const name = str(item.name);
    if (!name) throw new Unusable(`a ${kind === 'env' ? 'variable' : 'header'} has no name`);
    noReference(`${kind} name`, name);
    const value = str(item.value);
    if (value !== undefined) out[name] = withVariables(value, obj(item.variables), `${kind} ${name}`, inputs);
    else {
      const key = `${kind}.${name}`;
      inputs.push(input(key, name, item));
      out[name] = mark(key);
    }
  }
  return out;
}

/** One runtime or package argument as argv entries. */
function argument(arg: Json, where: string, inputs: InstallInputView[]): string[] {
  const type = str(arg.type);
  const name = str(arg.name);
  if (name !== undefined) noReference(`${where} name`, name);
  if (str(arg.valueHint) !== undefined) noReference(`${where} valueHint`, str(arg.valueHint)!);
  const fixed = str(arg.value);
  let value: string;
  if (fixed !== undefined) value = withVariables(fixed, obj(arg.variables), where, inputs);
  else {
    const key = `arg.${name ?? str(arg.valueHint) ?? where}`;
    inputs.push(input(key, name ?? str(arg.valueHint) ?? where, arg));
    value = mark(key);
  }
  if (type === 'positional') return [value];
  if (type !== 'named' || !name) throw new Unusable(`${where}: argument type "${type ?? ''}" is not positional or named`);
  noReference(where, name);
  // A boolean flag that is on is the flag alone (docker -i, --rm).
  if (str(arg.format) === 'boolean' && fixed === 'true') return [name];
  return [name, value];
}

/** `{name}` variables inside a value become inputs; everything else is taken as written. */
function withVariables(value: string, variables: Json, where: string, inputs: InstallInputView[]): string {
  noReference(where, value);
  return value.replace(/\{([A-Za-z0-9_.-]+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(variables, name)) return whole;
    const key = `var.${name}`;
    if (!inputs.some((i) => i.key === key)) inputs.push(input(key, name, obj(variables[name])));
    return mark(key);
  });
}

/** An input the person fills; its default and choices are document text, so they face the same rule (SECURITY V1). */
function input(key: string, label: string, item: Json): InstallInputView {
  const choices = Array.isArray(item.choices) ? item.choices.filter((c): c is string => typeof c === 'string') : undefined;
  const fallback = str(item.default);
  if (fallback !== undefined) noReference(`${key} default`, fallback);
  choices?.forEach((choice, i) => noReference(`${key} choices[${i}]`, choice));
  return {
    key,
    label,
    ...(str(item.description) ? { description: str(item.description)! } : {}),
    required: item.isRequired === true,
    secret: item.isSecret === true,
    ...(fallback !== undefined && item.isSecret !== true ? { default: fallback } : {}),
    ...(choices?.length ? { choices } : {}),
  };
}

/**
 * Document text with "${" would be expanded once written (a ${cmd:…} runs, a ${secret:…} reads the
 * keychain), and the private-use marks would pose as an input: both make the option unusable,
 * naming the field (SECURITY V1).
 */
function noReference(where: string, value: string): void {
  const found = /\$\{[^}]*\}?/.exec(value);
  if (found) throw new Unusable(`${where} holds ${found[0].slice(0, 80)}: a registry document may not write a \${…} reference (Switchboard would expand it)`);
  if (/[\uE000\uE001]/.test(value)) throw new Unusable(`${where} holds a private-use character Switchboard keeps for its own marks`);
}

/** The entry to write: each input's value in place, secrets as ${secret:NAME} (their values go to the keychain). */
export function fillTemplate(template: EntryTemplate, inputs: InstallInputView[], values: Record<string, string>, secretName: (key: string) => string): Record<string, unknown> {
  const byKey = new Map(inputs.map((i) => [i.key, i]));
  const fill = (text: string) =>
    text.replace(MARK, (_m, key: string) => {
      const spec = byKey.get(key);
      if (!spec) return '';
      if (spec.secret) return values[key] ? `\${secret:${secretName(key)}}` : '';
      return valueOf(spec, values);
    });
  const map = (m: Record<string, string> | undefined) => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, fill(v)]).filter(([, v]) => v !== '')) : undefined);
  const entry: Record<string, unknown> = {};
  if (template.command !== undefined) Object.assign(entry, { command: template.command, args: (template.args ?? []).map(fill), env: map(template.env) });
  if (template.url !== undefined) Object.assign(entry, { url: fill(template.url), headers: map(template.headers), transport: template.transport });
  return entry;
}

/** A preview of what will run with the inputs shown as {name}, for the install form. */
export function previewTemplate(template: EntryTemplate): EntryTemplate {
  const show = (text: string) => text.replace(MARK, (_m, key: string) => `{${key}}`);
  const map = (m?: Record<string, string>) => (m ? Object.fromEntries(Object.entries(m).map(([k, v]) => [k, show(v)])) : undefined);
  return {
    ...template,
    ...(template.command !== undefined ? { command: show(template.command), args: (template.args ?? []).map(show), env: map(template.env) } : {}),
    ...(template.url !== undefined ? { url: show(template.url), headers: map(template.headers) } : {}),
  };
}
