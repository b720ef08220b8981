import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BundleFieldView, BundlePreviewView, InstalledBundleView } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';
import { homedir } from 'node:os';
import { bundlesFile } from '../data-home';
import { readPolicy, type PolicyState } from '../policy/policy-file';
import { identityOf, installVerdict, sandboxRequired } from '../policy/policy-rules';
import { bundleSandboxBlock, bundleSandboxFields } from './bundle-sandbox';
import type { SecretVault } from '../ports';
import type { ArchiveLimits, ArchiveListing } from './bundle-archive';
import type { BundleManifest, UserConfigValue } from './bundle-manifest';
import { checkEntryPoint, checkPlatform, checkValues, effectiveConfig, planEntry, resolvedDefault, systemDirs } from './bundle-plan';
import { bundlesDir, changeBundles, readBundles, writeBundles, type InstalledBundle } from './bundle-store';
import { checkFinishedEntry } from './final-check';
import { freeName } from './free-name';

export interface BundleInstallerDeps {
  home: string;
  vault: SecretVault;
  /** Names of every configured server, from any file: a new install never takes one of them. */
  serverNames: () => string[];
  /** Apply the config again after bundles.json changed. */
  reload: () => Promise<unknown>;
  /** Forget a server's trust approvals (uninstall). */
  revokeTrust: (name: string) => Promise<unknown>;
  limits?: ArchiveLimits;
  platform?: NodeJS.Platform;
  clock?: () => number;
}

export interface InstallRequest {
  name: string;
  /** Settings that are not sensitive, by user_config key. */
  values: Record<string, UserConfigValue>;
  /** Sensitive settings: straight to the keychain. On an update, a key left out keeps its stored value. */
  secrets: Record<string, string>;
  /** The form's sandbox switch; left out, on (SECURITY X1). */
  sandbox?: boolean;
}

/** Keychain name of one sensitive setting of an installed bundle. */
export const bundleSecretName = (server: string, key: string): string => `bundle.${server}.${key.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 128);

/**
 * Installs, updates and uninstalls .mcpb bundles. Every check runs before anything is written,
 * and a failure part-way undoes what was done: no folder, secret or config entry is left behind.
 */
export class BundleInstaller {
  constructor(private readonly deps: BundleInstallerDeps) {}

  /** Everything the install form shows: what it is, what it will run, what it asks for. */
  async preview(file: string): Promise<BundlePreviewView> {
    const { manifest, listing } = await this.inspect(file);
    const installed = await readBundles(this.deps.home);
    const existing = Object.entries(installed.bundles).find(([, b]) => b.manifestName === manifest.name);
    const config = effectiveConfig(manifest, this.deps.platform);
    const policy = await readPolicy();
    // The administrator's word comes first: a bundle the policy refuses is refused where it is picked (SECURITY X2).
    this.checkPolicy(policy, config.command, config.args ?? []);
    return {
      manifestName: manifest.name,
      displayName: manifest.display_name ?? manifest.name,
      version: manifest.version,
      description: manifest.description,
      author: manifest.author.name,
      manifestVersion: manifest.manifestVersion,
      serverType: manifest.server.type,
      command: config.command,
      args: config.args ?? [],
      env: config.env ?? {},
      bundlesFolder: bundlesDir(this.deps.home),
      fields: fieldsOf(manifest),
      tools: (manifest.tools ?? []).map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}) })),
      unpackedBytes: listing.unpackedBytes,
      suggestedName: existing ? existing[0] : freeName(manifest.name, this.deps.serverNames()),
      ...(existing ? { updates: { server: existing[0], version: existing[1].version } } : {}),
      sandbox: { on: true, setByOrganization: sandboxRequired(policy) },
    };
  }

  private checkPolicy(policy: PolicyState, command: string, args: string[]): void {
    const verdict = installVerdict(policy, 'bundle', identityOf({ kind: 'stdio', command, args }));
    if (!verdict.ok) throw new AppFailure('invalid_input', verdict.reason);
  }

  async install(file: string, request: InstallRequest): Promise<{ name: string; updated: boolean }> {
    const { manifest, listing } = await this.inspect(file);
    const sha256 = await fileSha256(file);
    if (/^\.+$/.test(request.name)) throw new AppFailure('invalid_input', `"${request.name}" cannot name a bundle's folder; choose another name`);
    return changeBundles(this.deps.home, async (bundles) => {
      const previous = bundles.bundles[request.name];
      if (previous && previous.manifestName !== manifest.name) {
        throw new AppFailure('conflict', `server "${request.name}" is the bundle "${previous.manifestName}", not "${manifest.name}"; install it as "${freeName(manifest.name, this.deps.serverNames())}"`);
      }
      if (!previous && this.deps.serverNames().includes(request.name)) {
        throw new AppFailure('conflict', `a server named "${request.name}" already exists; install it as "${freeName(request.name, this.deps.serverNames())}"`);
      }
      const sensitive = Object.entries(manifest.user_config ?? {}).filter(([, o]) => o.sensitive).map(([k]) => k);
      for (const key of Object.keys(request.secrets)) {
        if (!sensitive.includes(key)) throw new AppFailure('invalid_input', `the bundle has no sensitive setting "${key}"`);
      }
      const secretName = (key: string) => bundleSecretName(request.name, key);
      const given = new Set(Object.entries(request.secrets).filter(([, v]) => v !== '').map(([k]) => k));
      const kept = new Set(sensitive.filter((k) => !given.has(k) && previous?.secrets.includes(secretName(k))));
      const sensitiveSet = new Set([...given, ...kept]);
      checkValues(manifest, request.values, sensitiveSet);
      const dir = join(bundlesDir(this.deps.home), request.name, sha256.slice(0, 16));
      const planned = planEntry(manifest, { installDir: dir, files: listing.files, platform: this.deps.platform, values: request.values, secretName, sensitiveSet });
      const policy = await readPolicy();
      this.checkPolicy(policy, planned.command, planned.args);
      // Sandboxed with the folders and files the person picked in its settings, as the card showed them (SECURITY X1, V2).
      const defaults = Object.fromEntries(fieldsOf(manifest).map((f) => [f.key, f.default]));
      const block = bundleSandboxBlock(manifest, request.values, defaults, homedir(), this.deps.home);
      const entry = { ...planned, ...bundleSandboxFields(block, request.sandbox, policy) };
      checkFinishedEntry(request.name, entry, new Set([...sensitiveSet].map(secretName)));

      const undo: (() => Promise<unknown>)[] = [];
      try {
        if (previous?.dir !== dir) {
          await this.unpack(file, dir);
          undo.push(() => rm(dir, { recursive: true, force: true }));
        }
        for (const key of given) {
          const name = secretName(key);
          const before = await this.deps.vault.get(name);
          await this.deps.vault.set(name, request.secrets[key]!);
          undo.push(() => (before === undefined ? this.deps.vault.delete(name) : this.deps.vault.set(name, before)));
        }
        const record: InstalledBundle = { manifestName: manifest.name, version: manifest.version, dir, sha256, secrets: [...sensitiveSet].map(secretName), installedAt: (this.deps.clock ?? Date.now)() };
        await writeBundles(this.deps.home, { servers: { ...bundles.servers, [request.name]: entry }, bundles: { ...bundles.bundles, [request.name]: record } });
      } catch (error) {
        for (const step of undo.reverse()) await step().catch(() => undefined);
        throw error;
      }
      if (previous) await this.dropLeftovers(previous, dir, new Set([...sensitiveSet].map(secretName)));
      await this.deps.reload();
      return { name: request.name, updated: previous !== undefined };
    });
  }

  /** Its folder, its secrets, its approval and its entry go. */
  async uninstall(name: string): Promise<void> {
    await changeBundles(this.deps.home, async (bundles) => {
      const bundle = bundles.bundles[name];
      if (!bundle) throw new AppFailure('not_found', `no installed bundle named "${name}"`);
      const { [name]: _server, ...servers } = bundles.servers;
      const { [name]: _bundle, ...rest } = bundles.bundles;
      await writeBundles(this.deps.home, { servers, bundles: rest });
      // Its own folder only: bundles/<name>/<sha>, removed with the <name> level above it.
      await rm(bundle.dir, { recursive: true, force: true });
      if (dirname(dirname(bundle.dir)) === bundlesDir(this.deps.home)) await rm(dirname(bundle.dir), { recursive: true, force: true });
      for (const secret of bundle.secrets) await this.deps.vault.delete(secret);
      await this.deps.revokeTrust(name).catch(() => undefined);
    });
    await this.deps.reload();
  }

  async list(): Promise<InstalledBundleView[]> {
    const { bundles } = await readBundles(this.deps.home);
    return Object.entries(bundles).map(([name, b]) => ({ name, source: bundlesFile(this.deps.home), manifestName: b.manifestName, version: b.version, dir: b.dir, installedAt: b.installedAt }));
  }

  private async inspect(file: string): Promise<{ manifest: BundleManifest; listing: ArchiveListing }> {
    // The zip reader and the manifest schemas load on first use, not at start (main-process memory).
    const [{ listBundle }, { parseBundleManifest }] = await Promise.all([import('./bundle-archive'), import('./bundle-manifest')]);
    const listing = await listBundle(file, this.deps.limits);
    const manifest = parseBundleManifest(listing.manifestText);
    checkPlatform(manifest, this.deps.platform);
    checkEntryPoint(manifest, listing.files);
    // The manifest's own command, args and env are checked here, before any setting is asked for.
    const sensitiveSet = new Set(Object.keys(manifest.user_config ?? {}));
    const planned = planEntry(manifest, { installDir: join(bundlesDir(this.deps.home), 'check'), files: listing.files, platform: this.deps.platform, values: {}, secretName: (k) => k, sensitiveSet });
    checkFinishedEntry(manifest.name, planned, sensitiveSet);
    return { manifest, listing };
  }

  /** Unpack next to its final place, then move it there in one rename; a failure leaves no folder. */
  private async unpack(file: string, dir: string): Promise<void> {
    const temp = join(bundlesDir(this.deps.home), `.unpack-${randomBytes(6).toString('hex')}`);
    await mkdir(bundlesDir(this.deps.home), { recursive: true, mode: 0o700 });
    try {
      const { extractBundle } = await import('./bundle-archive');
      await extractBundle(file, temp, this.deps.limits);
      await mkdir(join(dir, '..'), { recursive: true, mode: 0o700 });
      await rm(dir, { recursive: true, force: true });
      await rename(temp, dir);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
  }

  /** After an update: the old version's folder and secrets the new one no longer uses. */
  private async dropLeftovers(previous: InstalledBundle, dir: string, secrets: Set<string>): Promise<void> {
    if (previous.dir !== dir) await rm(previous.dir, { recursive: true, force: true });
    for (const secret of previous.secrets) if (!secrets.has(secret)) await this.deps.vault.delete(secret).catch(() => false);
  }
}

function fieldsOf(manifest: BundleManifest): BundleFieldView[] {
  return Object.entries(manifest.user_config ?? {}).map(([key, o]) => ({
    key,
    type: o.type,
    title: o.title,
    description: o.description,
    required: o.required ?? false,
    sensitive: o.sensitive ?? false,
    multiple: o.multiple ?? false,
    // The default as it will be written (${HOME} and friends filled in), so the form shows the real value (SECURITY V2).
    ...(o.default !== undefined && !o.sensitive ? { default: resolvedDefault(key, o, systemDirs())! } : {}),
    ...(o.min !== undefined ? { min: o.min } : {}),
    // A picked folder is a write grant of the sandbox, a picked file a read grant (bundle-sandbox).
    ...(!o.sensitive && (o.type === 'directory' || o.type === 'file') ? { grants: o.type === 'directory' ? ('write' as const) : ('read' as const) } : {}),
    ...(o.max !== undefined ? { max: o.max } : {}),
  }));
}

async function fileSha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
