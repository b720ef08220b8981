import { VERSIONED_MANIFEST_SCHEMAS } from '@anthropic-ai/mcpb/schemas';
import { AppFailure } from '../app-error';

/** The manifest versions the official schemas (from @anthropic-ai/mcpb) describe; a bundle of any other is refused. */
export const SUPPORTED_MANIFEST_VERSIONS = Object.keys(VERSIONED_MANIFEST_SCHEMAS) as (keyof typeof VERSIONED_MANIFEST_SCHEMAS)[];

export type UserConfigType = 'string' | 'number' | 'boolean' | 'directory' | 'file';
export type UserConfigValue = string | number | boolean | string[];

export interface UserConfigOption {
  type: UserConfigType;
  title: string;
  description: string;
  required?: boolean;
  default?: UserConfigValue;
  multiple?: boolean;
  sensitive?: boolean;
  min?: number;
  max?: number;
}

export interface McpConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
}

/** The parts of a validated manifest Switchboard uses (the schema checked all of it). */
export interface BundleManifest {
  manifestVersion: string;
  name: string;
  display_name?: string;
  version: string;
  description: string;
  author: { name: string; email?: string; url?: string };
  server: {
    type: string;
    entry_point: string;
    mcp_config: McpConfig & { platform_overrides?: Record<string, Partial<McpConfig>> };
  };
  compatibility?: { platforms?: string[] };
  tools?: { name: string; description?: string }[];
  user_config?: Record<string, UserConfigOption>;
}

const bad = (message: string): AppFailure => new AppFailure('invalid_input', message);

/** Parse and validate manifest.json against the official schema of the version it declares. */
export function parseBundleManifest(text: string): BundleManifest {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw bad(`the bundle's manifest.json is not valid JSON (${(error as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw bad(`the bundle's manifest.json must be a JSON object`);
  const declared = (raw as Record<string, unknown>).manifest_version ?? (raw as Record<string, unknown>).dxt_version;
  if (declared === undefined) throw bad(`the bundle's manifest.json has no "manifest_version"`);
  const supported = SUPPORTED_MANIFEST_VERSIONS.join(', ');
  if (typeof declared !== 'string' || !(SUPPORTED_MANIFEST_VERSIONS as string[]).includes(declared)) {
    throw bad(`the bundle's manifest_version ${JSON.stringify(declared)} is not supported; Switchboard reads manifest versions ${supported}`);
  }
  const parsed = VERSIONED_MANIFEST_SCHEMAS[declared as keyof typeof VERSIONED_MANIFEST_SCHEMAS].safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? `"${issue.path.join('.')}"` : 'the top level';
    throw bad(`the bundle's manifest.json is invalid at ${where}: ${issue.message}`);
  }
  const manifest = parsed.data as unknown as Omit<BundleManifest, 'manifestVersion'>;
  if (!manifest.server.mcp_config) throw bad(`the bundle's manifest.json has no "server.mcp_config": Switchboard cannot tell how to start it`);
  return { ...manifest, manifestVersion: declared };
}
