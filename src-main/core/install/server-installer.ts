import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CatalogItemView, InstallLinkView, InstallOptionView, InstallSource, RegistryServerView } from '../../../src-preload/contract/install';
import { AppFailure } from '../app-error';
import { readTextIfExists, writeFileAtomic } from '../config/atomic-file';
import { addServer } from '../config/config-writer';
import { guardedFetch } from '../oauth/guarded-fetch';
import type { SecretVault } from '../ports';
import catalog from './catalog.json';
import { checkFinishedEntry } from './final-check';
import { freeName } from './free-name';
import { linkedEntry } from './install-link';
import { DEFAULT_REGISTRY_URL, RegistryClient, checkRegistryUrl, readCappedBytes, type RegistryEntry } from './registry-client';
import { checkInputs, fillTemplate, installOptions, optionView, type InstallOption } from './registry-mapping';
import { readPolicy, readPolicySync, type PolicyState } from '../policy/policy-file';
import { identityOf, installVerdict, type InstallSource as PolicyInstallSource, type IdentifiedConfig } from '../policy/policy-rules';
import { installSandboxView, withInstallSandbox, type SandboxOrigin } from '../sandbox/install-sandbox';
import { MAX_BUNDLE_BYTES, type UploadStaging } from './upload-staging';

export interface ServerInstallerDeps {
  home: string;
  vault: SecretVault;
  /** Every configured server's name: an install never takes one. */
  serverNames: () => string[];
  reload: () => Promise<unknown>;
  staging: UploadStaging;
  /** The transport under the guarded fetch (tests send https URLs to loopback); every request is guarded. */
  fetch?: FetchLike;
}

export const registrySettingsFile = (home: string): string => join(home, 'registry.json');

/** Keychain name of one secret input of a server installed from the catalog or the registry. */
export const installSecretName = (server: string, key: string): string => `install.${server}.${key.replace(/[^A-Za-z0-9_.-]/g, '_')}`.slice(0, 128);

/**
 * Installs from the curated catalog and the MCP Registry. Nothing is written until the person
 * clicks Install with every value the entry needs; the entry goes to servers.json (the person
 * chose it, having seen exactly what it runs) and its secrets to the keychain.
 */
export class ServerInstaller {
  private readonly fetch: FetchLike;

  constructor(private readonly deps: ServerInstallerDeps) {
    this.fetch = guardedFetch(deps.fetch ?? fetch);
  }

  catalog(): CatalogItemView[] {
    const policy = readPolicySync();
    return catalog.servers.map((item) => ({
      id: item.id,
      title: item.title,
      description: item.description,
      needs: item.needs,
      options: installOptions(item.server).map((o) => this.shown(o, { catalog: item.id }, policy)),
      suggestedName: freeName(item.id, this.deps.serverNames()),
    }));
  }

  /**
   * An option as the form shows it (SECURITY V2, X1, X2): what it runs, the sandbox Install writes, and —
   * when the administrator's policy refuses this install — not installable, with the policy's reason.
   */
  private shown(option: InstallOption, source: InstallSource, policy: PolicyState): InstallOptionView {
    const view = optionView(option);
    const sandbox = option.template ? installSandboxView(option.template, source, policy) : undefined;
    const verdict = option.usable && option.template ? installVerdict(policy, policySource(source), identityOf(templateConfig(option.template), registryNameOf(source))) : { ok: true as const };
    return { ...view, ...(sandbox ? { sandbox } : {}), ...(verdict.ok ? {} : { usable: false, reason: verdict.reason }) };
  }

  /** A parsed install link as the form shows it: a linked command gets the sandbox Install would write. */
  linkView(link: InstallLinkView): InstallLinkView {
    if (link.kind !== 'config') return link;
    const sandbox = installSandboxView(link.entry, { link: true }, readPolicySync());
    return sandbox ? { ...link, sandbox } : link;
  }

  async registryUrl(): Promise<string> {
    const text = await readTextIfExists(registrySettingsFile(this.deps.home));
    const url = text ? (JSON.parse(text) as { url?: unknown }).url : undefined;
    return typeof url === 'string' ? url : DEFAULT_REGISTRY_URL;
  }

  async setRegistryUrl(url: string): Promise<string> {
    const checked = checkRegistryUrl(url);
    await writeFileAtomic(registrySettingsFile(this.deps.home), `${JSON.stringify({ url: checked }, null, 2)}\n`);
    return checked;
  }

  async search(query: string, cursor?: string): Promise<{ servers: RegistryServerView[]; nextCursor?: string }> {
    const page = await (await this.client()).search(query, cursor);
    const policy = await readPolicy();
    return { servers: page.servers.map((e) => this.registryView(e, policy)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
  }

  async install(source: InstallSource, optionId: string, name: string, values: Record<string, string>, sandbox?: boolean): Promise<{ name: string }> {
    const option = await this.option(source, optionId);
    if (!option.template) throw new AppFailure('invalid_input', option.download ? 'this option is a bundle: download it, then install the bundle' : `this option cannot be installed: ${option.reason ?? 'unknown'}`);
    checkInputs(option.inputs, values);
    const secretName = (key: string) => installSecretName(name, key);
    const secrets = option.inputs.filter((i) => i.secret && values[i.key]).map((i) => ({ name: secretName(i.key), value: values[i.key]! }));
    const entry = fillTemplate(option.template, option.inputs, values, secretName);
    // Installed from the catalog or a registry: sandboxed as the form showed it (SECURITY X1, V2).
    return this.write(name, entry, secrets, { source: policySource(source), registryName: registryNameOf(source), sandboxOrigin: source, sandbox });
  }

  /** A server from an install link, as its form showed it; the link's rules are checked again here, not trusted from the UI (SECURITY V2). */
  async installLinked(name: string, raw: Record<string, unknown>, sandbox?: boolean): Promise<{ name: string }> {
    const linked = linkedEntry(name, raw);
    if (!linked.ok) throw new AppFailure('invalid_input', linked.message);
    return this.write(name, { ...linked.entry }, [], { source: 'link', sandboxOrigin: { link: true }, sandbox });
  }

  /**
   * Every registry, catalog and link install writes here: the policy's word on installing it (SECURITY X2, read
   * now, so a changed or broken file counts), the sandbox the form showed, the final check, its secrets to the
   * keychain, the entry to servers.json.
   */
  private async write(
    name: string,
    filled: Record<string, unknown>,
    secrets: { name: string; value: string }[],
    how: { source: PolicyInstallSource; registryName?: string | undefined; sandboxOrigin: SandboxOrigin; sandbox: boolean | undefined },
  ): Promise<{ name: string }> {
    if (this.deps.serverNames().includes(name)) {
      throw new AppFailure('conflict', `a server named "${name}" already exists; install it as "${freeName(name, this.deps.serverNames())}"`);
    }
    const policy = await readPolicy();
    const verdict = installVerdict(policy, how.source, identityOf(templateConfig(filled), how.registryName));
    if (!verdict.ok) throw new AppFailure('invalid_input', verdict.reason);
    const entry = withInstallSandbox(filled, installSandboxView(filled, how.sandboxOrigin, policy), how.sandbox);
    checkFinishedEntry(name, entry, new Set(secrets.map((s) => s.name)));
    const stored: string[] = [];
    try {
      for (const secret of secrets) {
        await this.deps.vault.set(secret.name, secret.value);
        stored.push(secret.name);
      }
      await addServer(this.deps.home, name, entry);
    } catch (error) {
      for (const secret of stored) await this.deps.vault.delete(secret).catch(() => false);
      throw error;
    }
    await this.deps.reload();
    return { name };
  }

  /** An mcpb package from the registry: downloaded through the guarded fetch, checked against its fileSha256, staged as an upload (SECURITY B4). */
  async downloadBundle(source: InstallSource, optionId: string): Promise<{ upload: string }> {
    const option = await this.option(source, optionId);
    if (!option.download) throw new AppFailure('invalid_input', 'this option is not a bundle download');
    const { url, sha256 } = option.download;
    const response = await this.fetch(url, { signal: AbortSignal.timeout(120_000) }).catch((error: Error) => {
      throw new AppFailure('unavailable', `the bundle at ${url} cannot be downloaded: ${error.message}`);
    });
    if (!response.ok) throw new AppFailure('unavailable', `the bundle at ${url} answered ${response.status}${response.status >= 300 && response.status < 400 ? ' (a redirect, which Switchboard does not follow)' : ''}`);
    const bytes = await readCappedBytes(response, MAX_BUNDLE_BYTES);
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (actual !== sha256) throw new AppFailure('invalid_input', `the bundle at ${url} does not match its fileSha256 (expected ${sha256}, got ${actual}); it was not kept`);
    const upload = await this.deps.staging.begin(bytes.length);
    await this.deps.staging.append(upload, 0, Buffer.from(bytes));
    return { upload };
  }

  private async client(): Promise<RegistryClient> {
    return new RegistryClient(await this.registryUrl(), this.fetch);
  }

  private registryView(entry: RegistryEntry, policy: PolicyState): RegistryServerView {
    const server = entry.server as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const short = entry.server.name.split('/').pop() ?? entry.server.name;
    return {
      name: entry.server.name,
      ...(text(server.title) ? { title: text(server.title)! } : {}),
      description: text(server.description) ?? '',
      ...(text(server.version) ? { version: text(server.version)! } : {}),
      ...(text((server.repository as Record<string, unknown> | undefined)?.url) ? { repository: text((server.repository as Record<string, unknown>).url)! } : {}),
      options: installOptions(server).map((o) => this.shown(o, { registry: entry.server.name }, policy)),
      suggestedName: freeName(short, this.deps.serverNames()),
    };
  }

  /** The option as the source says it now: the registry is asked again, never trusted from the UI. */
  private async option(source: InstallSource, optionId: string): Promise<InstallOption> {
    let document: unknown;
    if ('catalog' in source) {
      document = catalog.servers.find((s) => s.id === source.catalog)?.server;
      if (!document) throw new AppFailure('not_found', `no catalog entry "${source.catalog}"`);
    } else {
      document = (await (await this.client()).latest(source.registry)).server;
    }
    const option = installOptions(document).find((o) => o.id === optionId);
    if (!option) throw new AppFailure('not_found', `no install option "${optionId}"`);
    if (!option.usable) throw new AppFailure('invalid_input', `this option cannot be installed: ${option.reason}`);
    return option;
  }
}

const policySource = (source: InstallSource): PolicyInstallSource => ('catalog' in source ? 'catalog' : 'registry');
const registryNameOf = (source: InstallSource): string | undefined => ('registry' in source ? source.registry : undefined);

/** An entry (or an option's template) read as a config, for the policy's matchers: its command and package, or its host. */
function templateConfig(entry: { command?: unknown; args?: unknown; url?: unknown }): IdentifiedConfig {
  if (typeof entry.url === 'string') return { kind: 'remote', url: entry.url };
  const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
  return { kind: 'stdio', command: typeof entry.command === 'string' ? entry.command : '', args };
}
