/** Installing servers: .mcpb bundles (uploaded in chunks, previewed, installed, uninstalled). */
import { z } from 'zod';
import { empty, out, serverName } from './common';
import { BUNDLE_CHUNK_BYTES } from './values';

export type BundleSettingValue = string | number | boolean | string[];

/** One user_config option of a bundle, as the install form asks for it. */
export interface BundleFieldView {
  key: string;
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file';
  title: string;
  description: string;
  required: boolean;
  /** Its value goes to the OS keychain, never into a file. */
  sensitive: boolean;
  multiple: boolean;
  default?: BundleSettingValue;
  min?: number;
  max?: number;
  /** What the value grants the sandboxed server: a picked folder is written, a picked file read. */
  grants?: 'write' | 'read';
}

export interface BundlePreviewView {
  manifestName: string;
  displayName: string;
  version: string;
  description: string;
  author: string;
  /** The manifest_version it declares (one of the supported ones, or it would not preview). */
  manifestVersion: string;
  /** node, python, uv or binary. */
  serverType: string;
  /** What it will run, as the manifest says it: ${__dirname} is its folder under bundlesFolder. */
  command: string;
  args: string[];
  env: Record<string, string>;
  bundlesFolder: string;
  fields: BundleFieldView[];
  tools: { name: string; description?: string }[];
  unpackedBytes: number;
  /** A free server name (or the installed one, for an update). */
  suggestedName: string;
  /** Set when this bundle is installed already: installing replaces that version. */
  updates?: { server: string; version: string };
  /**
   * It runs sandboxed (SECURITY X1): its own folder readable, the folders and files its settings name
   * granted, no network. One switch, locked on when the administrator's policy requires the sandbox.
   */
  sandbox: { on: boolean; setByOrganization: boolean };
}

export interface InstalledBundleView {
  name: string;
  /** The config file its server is defined in (bundles.json). */
  source: string;
  manifestName: string;
  version: string;
  dir: string;
  installedAt: number;
}

const uploadId = z.string().regex(/^[0-9a-f]{32}$/, 'not an upload id');
const settingValue = z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(10_000)).max(100)]);
const settingKey = z.string().min(1).max(200);

export const installInvokes = {
  /** Announces an upload of `size` bytes; chunks follow in order. */
  beginBundleUpload: {
    input: z.object({ size: z.number().int('size must be a whole number').min(1, 'the file is empty') }).strict(),
    output: out<{ upload: string }>(),
  },
  appendBundleUpload: {
    input: z
      .object({
        upload: uploadId,
        offset: z.number().int().min(0),
        data: z.base64('data must be base64').max(Math.ceil(BUNDLE_CHUNK_BYTES / 3) * 4, 'the chunk is too big'),
      })
      .strict(),
    output: out<{ received: number }>(),
  },
  discardBundleUpload: { input: z.object({ upload: uploadId }).strict(), output: out<null>() },
  previewBundle: { input: z.object({ upload: uploadId }).strict(), output: out<BundlePreviewView>() },
  /** Unpacks and adds it, blocked until approved (the same trust card as project servers). */
  installBundle: {
    input: z
      .object({
        upload: uploadId,
        name: serverName,
        values: z.record(settingKey, settingValue),
        secrets: z.record(settingKey, z.string().max(10_000)),
        /** The card's sandbox switch; left out, on. */
        sandbox: z.boolean().optional(),
      })
      .strict(),
    output: out<{ name: string; updated: boolean }>(),
  },
  listBundles: { input: empty, output: out<InstalledBundleView[]>() },
  uninstallBundle: { input: z.object({ name: serverName }).strict(), output: out<null>() },
} as const;

/** One value an install from the registry or the catalog asks for. */
export interface InstallInputView {
  key: string;
  label: string;
  description?: string;
  required: boolean;
  /** Goes to the OS keychain, never into a file. */
  secret: boolean;
  default?: string;
  choices?: string[];
}

/** What an install will run, with each input shown as {key}. */
export interface InstallRunsView {
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
  /** auto: streamable HTTP, then SSE (a link may leave it to Switchboard). */
  transport?: 'auto' | 'streamable-http' | 'sse';
}

/** A `sandbox` block in VS Code's mcp.json shape, as an install writes it (only the lists that have something). */
export interface SandboxBlockView {
  filesystem?: { allowWrite?: string[]; allowRead?: string[]; denyRead?: string[]; denyWrite?: string[] };
  network?: { allowedDomains?: string[]; deniedDomains?: string[] };
}

/**
 * The sandbox an install writes (SECURITY X1, V2), shown before Install with one switch: on writes
 * `"sandboxEnabled": true` and `sandbox`, off writes `"sandboxEnabled": false` and nothing else.
 */
export interface InstallSandboxView {
  /** Where the switch starts. */
  on: boolean;
  sandbox: SandboxBlockView;
  /** The administrator's policy requires the sandbox: the switch is locked on. */
  setByOrganization: boolean;
  /** Why it starts off, when it does. */
  note?: string;
}

/** One way a server.json offers to run a server (a package or a remote); unusable ones say why. */
export interface InstallOptionView {
  id: string;
  label: string;
  usable: boolean;
  reason?: string;
  inputs: InstallInputView[];
  runs?: InstallRunsView;
  /** Local servers: the sandbox Install writes (absent for remote servers and containers). */
  sandbox?: InstallSandboxView;
  /** mcpb packages: downloaded, checked against sha256, then installed as a bundle. */
  download?: { url: string; sha256: string };
}

export interface CatalogItemView {
  id: string;
  title: string;
  description: string;
  /** What the person needs to have or give, in a few words. */
  needs: string;
  options: InstallOptionView[];
  suggestedName: string;
}

export interface RegistryServerView {
  /** The registry's name, e.g. io.github.brave/brave-search-mcp-server. */
  name: string;
  title?: string;
  description: string;
  version?: string;
  repository?: string;
  options: InstallOptionView[];
  suggestedName: string;
}

/** Where an install comes from: the shipped catalog or the configured registry (asked again at install time). */
export type InstallSource = { catalog: string } | { registry: string };

const installSource = z.union([
  z.object({ catalog: z.string().min(1).max(100) }).strict(),
  z.object({ registry: z.string().min(1).max(200) }).strict(),
]);
const optionId = z.string().regex(/^(package|remote):\d{1,3}$/, 'not an install option');

export const discoverInvokes = {
  listCatalog: { input: empty, output: out<CatalogItemView[]>() },
  searchRegistry: {
    input: z.object({ query: z.string().max(200), cursor: z.string().max(500).optional() }).strict(),
    output: out<{ servers: RegistryServerView[]; nextCursor?: string; registryUrl: string }>(),
  },
  getRegistryUrl: { input: empty, output: out<{ url: string }>() },
  setRegistryUrl: { input: z.object({ url: z.string().min(1).max(2000) }).strict(), output: out<{ url: string }>() },
  /** Writes the entry to servers.json; secret inputs go to the keychain. Never over an existing name. */
  installServer: {
    input: z
      .object({
        source: installSource,
        option: optionId,
        name: serverName,
        values: z.record(z.string().max(200), z.string().max(10_000)),
        /** The form's sandbox switch; left out, the option's starting position. */
        sandbox: z.boolean().optional(),
      })
      .strict(),
    output: out<{ name: string }>(),
  },
  /** An mcpb option: downloaded and checked against its sha256; continue with previewBundle. */
  downloadRegistryBundle: { input: z.object({ source: installSource, option: optionId }).strict(), output: out<{ upload: string }>() },
} as const;

/** What an install link asks for; it opens the install form, never installs by itself. */
export type InstallLinkView =
  | { kind: 'catalog'; catalog: string; name?: string }
  | { kind: 'registry'; registry: string; name?: string }
  | { kind: 'config'; entry: InstallRunsView; name?: string; sandbox?: InstallSandboxView };

export const installLinkInvokes = {
  /** Parse a switchboard://install link (main parses it; the renderer only shows the result). */
  readInstallLink: { input: z.object({ link: z.string().max(8192, 'the install link is too long') }).strict(), output: out<InstallLinkView>() },
  /** The link the desktop shell was opened with (switchboard://install?…), parsed; null when none waits. */
  takeInstallLink: { input: empty, output: out<InstallLinkView | null>() },
  /** Writes a linked server as the form showed it; main checks the entry with the link's rules again. */
  installLinkedServer: {
    input: z.object({ name: serverName, entry: z.record(z.string().max(200), z.unknown()), sandbox: z.boolean().optional() }).strict(),
    output: out<{ name: string }>(),
  },
} as const;

export const installLinkEvents = {
  /** The desktop shell was handed an install link: take it with takeInstallLink. */
  installLinkOffered: out<Record<string, never>>(),
} as const;
