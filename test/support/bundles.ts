import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { zipSync, type Zippable } from 'fflate';

/** Test bundles: good ones packed by the official mcpb CLI, broken ones zipped by hand (the CLI refuses them). */

const MCPB_CLI = resolve('node_modules/@anthropic-ai/mcpb/dist/cli/cli.js');
/** The manifest fields tests change; the rest passes through. */
export interface ManifestJson {
  name: string;
  version: string;
  manifest_version?: string;
  author?: unknown;
  compatibility?: unknown;
  server: { entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  [key: string]: unknown;
}

export const HELLO_FIXTURE = resolve('test/fixtures/bundles/hello');

/** Copy a fixture bundle folder, let the test change its manifest, and pack it with `mcpb pack`. */
export async function packFixture(change: (manifest: ManifestJson) => void = () => {}, fixture = HELLO_FIXTURE): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'sb-bundle-src-'));
  const source = join(work, 'src');
  await cp(fixture, source, { recursive: true });
  const manifest = JSON.parse(await readFile(join(source, 'manifest.json'), 'utf8')) as ManifestJson;
  change(manifest);
  await writeFile(join(source, 'manifest.json'), JSON.stringify(manifest, null, 2));
  const out = join(work, `${String(manifest.name)}.mcpb`);
  await promisify(execFile)(process.execPath, [MCPB_CLI, 'pack', source, out], { timeout: 60_000 });
  return out;
}

/** A zip written by hand, for what mcpb would never produce. */
export async function writeZip(files: Zippable, name = 'bad.mcpb'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sb-bundle-bad-'));
  const path = join(dir, name);
  await writeFile(path, zipSync(files));
  return path;
}

export async function helloManifest(): Promise<ManifestJson> {
  return JSON.parse(await readFile(join(HELLO_FIXTURE, 'manifest.json'), 'utf8')) as ManifestJson;
}
