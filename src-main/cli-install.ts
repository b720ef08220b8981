// `switchboard install <file.mcpb>` and `switchboard uninstall <name>`: bundles from a terminal, without starting any server.
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { BundlePreviewView } from '../src-preload/contract/install';
import { loadConfig } from './core/config/load-config';
import { BundleInstaller } from './core/install/bundle-installer';
import type { UserConfigValue } from './core/install/bundle-manifest';
import type { SecretVault } from './core/ports';

export const INSTALL_USAGE = `  switchboard install <file.mcpb> [--name NAME] [--set KEY=VALUE]...
                                                      install a bundle; sensitive settings are read from
                                                      standard input, one line each, into the keychain
  switchboard uninstall <name>                        remove an installed bundle, its files and its secrets`;

export type InstallCommand = { name: 'install'; file: string; serverName?: string; values: Record<string, string[]> } | { name: 'uninstall'; server: string };

/** Parse install/uninstall arguments; throws a message for the usage error. */
export function parseInstallCommand(argv: string[]): InstallCommand {
  const [command, ...rest] = argv;
  if (command === 'uninstall') {
    if (rest.length !== 1 || rest[0]!.startsWith('--')) throw new Error('uninstall needs exactly one server name');
    return { name: 'uninstall', server: rest[0]! };
  }
  let file: string | undefined;
  let serverName: string | undefined;
  const values: Record<string, string[]> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--name' || arg === '--set') {
      const value = rest[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--name') serverName = value;
      else {
        const eq = value.indexOf('=');
        if (eq < 1) throw new Error(`--set takes KEY=VALUE, got "${value}"`);
        (values[value.slice(0, eq)] ??= []).push(value.slice(eq + 1));
      }
    } else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else if (file === undefined) file = arg;
    else throw new Error(`install takes one bundle file, got an extra "${arg}"`);
  }
  if (!file) throw new Error('install needs a .mcpb file');
  return { name: 'install', file: resolve(file), values, ...(serverName ? { serverName } : {}) };
}

export async function runInstallCommand(command: InstallCommand, home: string, vault: SecretVault): Promise<number> {
  const names = (await loadConfig({ home })).servers.map((s) => s.name);
  const installer = new BundleInstaller({ home, vault, serverNames: () => names, reload: async () => {}, revokeTrust: async () => {} });
  if (command.name === 'uninstall') {
    await installer.uninstall(command.server);
    console.log(`uninstalled ${command.server}: its files and its keychain entries were removed`);
    return 0;
  }
  const preview = await installer.preview(command.file);
  printPreview(preview);
  const values = typedValues(preview, command.values);
  const secrets: Record<string, string> = {};
  const sensitive = preview.fields.filter((f) => f.sensitive);
  const lines = sensitive.length ? readLines() : undefined;
  for (const field of sensitive) {
    if (process.stdin.isTTY) process.stderr.write(`${field.title} (${field.key}, stored in the keychain): `);
    const line = await lines!.next();
    if (!line.done && line.value !== '') secrets[field.key] = line.value;
  }
  await lines?.return?.(undefined);
  const name = command.serverName ?? preview.suggestedName;
  const result = await installer.install(command.file, { name, values, secrets });
  console.log(`${result.updated ? 'updated' : 'installed'} "${name}"; it runs once you approve it: switchboard approve ${name} (or Approve and run on Switchboard's Servers page)`);
  return 0;
}

function printPreview(p: BundlePreviewView): void {
  console.log(`${p.displayName} ${p.version} by ${p.author} (manifest ${p.manifestVersion}, ${p.serverType})`);
  console.log(`  ${p.description}`);
  console.log(`  runs: ${[p.command, ...p.args].map((a) => JSON.stringify(a)).join(' ')}`);
  for (const [key, value] of Object.entries(p.env)) console.log(`  env ${key}=${value}`);
  console.log(`  \${__dirname} is its folder under ${p.bundlesFolder}`);
  for (const f of p.fields) console.log(`  setting ${f.key}: ${f.title}${f.required ? ' (required)' : ''}${f.sensitive ? ' (sensitive, read from standard input)' : ''}`);
  // SECURITY X1, V2: what the entry will say about its sandbox, before anything is written.
  console.log(`  runs sandboxed${p.sandbox.setByOrganization ? ' (set by your organization)' : ''}: reads its own folder, writes the folders its directory settings name, reads the files its file settings name, no network`);
  if (p.updates) console.log(`  replaces ${p.updates.server} ${p.updates.version}`);
}

/** --set values typed by the manifest: numbers and booleans as such, lists where the setting takes several. */
function typedValues(preview: BundlePreviewView, raw: Record<string, string[]>): Record<string, UserConfigValue> {
  const values: Record<string, UserConfigValue> = {};
  for (const [key, given] of Object.entries(raw)) {
    const field = preview.fields.find((f) => f.key === key);
    if (field?.sensitive) throw new Error(`setting ${key} is sensitive: give it on standard input, not on the command line`);
    if (!field || field.multiple) values[key] = field ? given : given[0]!;
    else if (field.type === 'number') values[key] = Number(given[0]);
    else if (field.type === 'boolean') values[key] = given[0] === 'true';
    else values[key] = given[0]!;
  }
  return values;
}

function readLines(): AsyncIterator<string> {
  return createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
}
