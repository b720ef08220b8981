import { homedir } from 'node:os';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { AppFailure } from '../app-error';
import type { BundleManifest, McpConfig, UserConfigOption, UserConfigValue } from './bundle-manifest';

/**
 * From a validated manifest to the servers.json-shaped entry Switchboard will run. The
 * manifest's own text may use only the bundle variables (${__dirname}, ${HOME}, ${user_config.KEY}, …):
 * anything else, ${secret:…} above all, is refused, so a bundle can never read another server's
 * keychain entries (SECURITY B2). Sensitive values become ${secret:NAME} references here.
 */
export interface PlanOptions {
  /** Where the bundle is (or will be) unpacked. */
  installDir: string;
  /** Files in the bundle (relative, "/"-separated), to check the entry point against. */
  files: Set<string>;
  platform?: NodeJS.Platform;
  home?: string;
  /** What the person entered; sensitive keys are absent (their values go to the keychain). */
  values: Record<string, UserConfigValue>;
  /** The keychain name a sensitive option's value is stored under. */
  secretName: (key: string) => string;
  /** Sensitive options with a value stored (or being stored); the others resolve to "". */
  sensitiveSet: Set<string>;
}

export interface PlannedEntry {
  command: string;
  args: string[];
  env: Record<string, string>;
}

const bad = (message: string): AppFailure => new AppFailure('invalid_input', message);
const VARIABLE = /\$\{([^}]*)\}/g;

/** The entry point must be a file inside the bundle. */
export function checkEntryPoint(manifest: BundleManifest, files: Set<string>): void {
  const entry = manifest.server.entry_point;
  const normal = posix.normalize(entry.replace(/\\/g, '/'));
  if (posix.isAbsolute(normal) || /^[A-Za-z]:/.test(normal) || normal === '..' || normal.startsWith('../')) {
    throw bad(`the bundle's server.entry_point "${entry}" points outside the bundle`);
  }
  if (!files.has(normal)) throw bad(`the bundle's server.entry_point "${entry}" is not a file in the bundle`);
}

export function checkPlatform(manifest: BundleManifest, platform: NodeJS.Platform = process.platform): void {
  const platforms = manifest.compatibility?.platforms;
  if (platforms && !platforms.includes(platform)) {
    throw bad(`the bundle runs only on ${platforms.join(', ')}, not on ${platform}`);
  }
}

/** mcp_config with this platform's override applied, as Claude Desktop does. */
export function effectiveConfig(manifest: BundleManifest, platform: NodeJS.Platform = process.platform): McpConfig {
  const { platform_overrides: overrides, ...base } = manifest.server.mcp_config;
  const override = overrides?.[platform];
  return { command: override?.command ?? base.command, args: override?.args ?? base.args ?? [], env: override?.env ?? base.env ?? {} };
}

/** Check what the person entered against the manifest's user_config; the message names the option. */
export function checkValues(manifest: BundleManifest, values: Record<string, UserConfigValue>, sensitiveSet: Set<string>): void {
  const options = manifest.user_config ?? {};
  for (const key of Object.keys(values)) {
    if (!Object.hasOwn(options, key)) throw bad(`the bundle has no setting "${key}"`);
  }
  for (const [key, option] of Object.entries(options)) {
    const label = `"${option.title}" (${key})`;
    const value = option.sensitive ? (sensitiveSet.has(key) ? 'set' : undefined) : (values[key] ?? option.default);
    const empty = value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
    if (empty) {
      if (option.required) throw bad(`${label} is required`);
      continue;
    }
    if (option.sensitive) continue;
    checkType(label, option, value!);
  }
}

function checkType(label: string, option: UserConfigOption, value: UserConfigValue): void {
  if (Array.isArray(value) && !option.multiple) throw bad(`${label} takes one value, not a list`);
  if (option.type === 'number') {
    const n = Number(value);
    if (typeof value === 'boolean' || Array.isArray(value) || !Number.isFinite(n)) throw bad(`${label} must be a number`);
    if (option.min !== undefined && n < option.min) throw bad(`${label} must be at least ${option.min}`);
    if (option.max !== undefined && n > option.max) throw bad(`${label} must be at most ${option.max}`);
  }
  if (option.type === 'boolean' && typeof value !== 'boolean') throw bad(`${label} must be true or false`);
}

/** The entry to write: bundle variables substituted, sensitive values as ${secret:…} references. */
export function planEntry(manifest: BundleManifest, options: PlanOptions): PlannedEntry {
  const home = options.home ?? homedir();
  const dirs = systemDirs(home);
  const userValues = new Map<string, string | string[]>();
  for (const [key, option] of Object.entries(manifest.user_config ?? {})) {
    if (option.sensitive) {
      userValues.set(key, options.sensitiveSet.has(key) ? `\${secret:${options.secretName(key)}}` : '');
      continue;
    }
    if (Object.hasOwn(options.values, key)) {
      // What the person typed (the form showed the default resolved) is taken as written.
      const typed = options.values[key]!;
      userValues.set(key, Array.isArray(typed) ? typed : String(typed));
    } else {
      const fallback = resolvedDefault(key, option, dirs);
      userValues.set(key, fallback === undefined ? '' : Array.isArray(fallback) ? fallback : String(fallback));
    }
  }
  const variables: Record<string, string> = { __dirname: options.installDir, pathSeparator: sep, '/': sep, ...dirs };
  const config = effectiveConfig(manifest, options.platform);
  const substitute = (text: string, field: string): string => {
    // A "${" that opens no variable (unclosed) would reach the entry as written: refused like any other (SECURITY V1).
    if (text.replace(VARIABLE, '').includes('${')) throw bad(`the bundle's ${field} holds a "\${" that is not a bundle variable`);
    return text.replace(VARIABLE, (whole, name: string) => {
      if (Object.hasOwn(variables, name)) return variables[name]!;
      const key = name.startsWith('user_config.') ? name.slice('user_config.'.length) : undefined;
      if (key !== undefined && userValues.has(key)) {
        const value = userValues.get(key)!;
        return Array.isArray(value) ? value.join(' ') : value;
      }
      throw bad(`the bundle's ${field} uses ${whole}, which is not a bundle variable`);
    });
  };
  const args: string[] = [];
  config.args!.forEach((arg, i) => {
    // A list value as a whole argument becomes one argument per item (the mcpb convention).
    const whole = /^\$\{user_config\.([^}]+)\}$/.exec(arg);
    const listValue = whole ? userValues.get(whole[1]!) : undefined;
    if (Array.isArray(listValue)) args.push(...listValue);
    else args.push(substitute(arg, `server.mcp_config.args[${i}]`));
  });
  const env = Object.fromEntries(
    Object.entries(config.env!).map(([k, v]) => {
      if (k.includes('${')) throw bad(`the bundle's server.mcp_config.env has a variable named "${k.slice(0, 80)}"; a name may not hold "\${"`);
      return [k, substitute(v, `server.mcp_config.env.${k}`)];
    }),
  );
  const entry = { command: substitute(config.command, 'server.mcp_config.command'), args, env };
  checkInside(entry, options.installDir);
  return entry;
}

/**
 * A setting's default with ${HOME} and the other folders filled in, as the form shows it. A default
 * is manifest text: any other ${…} in it (${secret:…}, ${cmd:…}) is refused, naming the setting,
 * instead of being passed on to be expanded at connect time (SECURITY V1).
 */
export function resolvedDefault(key: string, option: UserConfigOption, dirs: Record<string, string>): UserConfigValue | undefined {
  const resolve = (text: string): string => {
    const filled = text.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(dirs, name) ? dirs[name]! : whole));
    const left = /\$\{[^}]*\}?/.exec(filled);
    if (left) throw bad(`the bundle's user_config.${key}.default holds ${left[0].slice(0, 80)}, which is not a bundle variable; a bundle may not write a reference`);
    return filled;
  };
  const value = option.default;
  if (typeof value === 'string') return resolve(value);
  if (Array.isArray(value)) return value.map((v) => resolve(String(v)));
  return value;
}

/** The folders a default may name: ${HOME}, ${DESKTOP}, ${DOCUMENTS}, ${DOWNLOADS}. */
export function systemDirs(home: string = homedir()): Record<string, string> {
  return { HOME: home, DESKTOP: join(home, 'Desktop'), DOCUMENTS: join(home, 'Documents'), DOWNLOADS: join(home, 'Downloads') };
}

/** A path that starts at the bundle folder must stay in it (`${__dirname}/../..` is refused). */
function checkInside(entry: PlannedEntry, installDir: string): void {
  for (const value of [entry.command, ...entry.args, ...Object.values(entry.env)]) {
    if (!value.startsWith(installDir)) continue;
    const rel = relative(installDir, value);
    if (rel.startsWith('..') || isAbsolute(rel)) throw bad(`the bundle's mcp_config points outside the bundle: ${value}`);
  }
}
