import { existsSync, realpathSync, statSync } from 'node:fs';
import { userInfo } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { SandboxSettings } from '../config/sandbox-config';

/** Why a path is reachable: shown beside it, so the person sees what they (or a grant) opened. */
export type GrantSource = 'setting' | 'argument' | 'root' | 'working folder' | 'package' | 'toolchain';

export interface PathGrant {
  path: string;
  access: 'read' | 'write';
  from: GrantSource;
}

export type NetworkPlan = { kind: 'none' } | { kind: 'domains'; allowed: string[]; denied: string[] };

/**
 * What one sandboxed server may touch (SECURITY X1), independent of the OS mechanism: the system is
 * readable; every home folder and Switchboard's data home are hidden, with the toolchains, the server's own
 * package, its working folder and its grants bound back; writes only to write grants and a private temp;
 * no network unless domains are granted; the session bus and keyring sockets (/run/user) hidden.
 */
export interface SandboxPlan {
  /** Folders made empty and read-only inside the sandbox (files inside them are "not there"). */
  hidden: string[];
  /** Hidden even inside a grant, whoever gave it: Switchboard's data home. */
  sealed: string[];
  /** Single files or folders the settings deny reading, even inside a grant. */
  denyRead: string[];
  grants: PathGrant[];
  /** Write grants' parts that stay read-only (`denyWrite`). */
  denyWrite: string[];
  network: NetworkPlan;
  /** Argument folders not granted because they would open a secret place (e.g. "/" or the home folder). */
  refusedArguments: string[];
}

export interface PlanInput {
  /** Resolved executable (absolute). */
  command: string;
  args: string[];
  cwd?: string;
  settings: SandboxSettings | undefined;
  /** The person's HOME as the child sees it. */
  home: string;
  /** Switchboard's data home: never visible (its servers.json, tokens' bindings, conversations). */
  dataHome: string;
  /** The project folders the person opened: every server is offered them as roots, so they are grants. */
  roots?: string[];
}

/** Folders under a home that hold runtimes and package caches a server needs to start (npx, uvx, nvm …). */
const TOOLCHAIN_DIRS = [
  '.npm', '.nvm', '.volta', '.bun', '.deno', '.cargo', '.rustup', '.pyenv', '.asdf', '.yarn', '.pnpm-store',
  '.local/bin', '.local/lib', '.local/share/pnpm', '.local/share/uv', '.cache/uv', '.cache/pip',
];

/** Files and folders that mark a package's root, for "its own package". */
const PACKAGE_MARKERS = ['package.json', 'pyproject.toml', 'setup.py', 'Cargo.toml', 'go.mod'];

export function expandHome(path: string, home: string): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return resolve(path);
}

export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

export function buildSandboxPlan(input: PlanInput): SandboxPlan {
  const homes = unique([input.home, userInfo().homedir].filter((h) => h && h !== sep).map((h) => resolve(h)));
  const dataHome = resolve(input.dataHome);
  const secret = unique([...homes, dataHome, '/run/user']);
  const settings = input.settings;
  const grants: PathGrant[] = [];
  const add = (path: string, access: PathGrant['access'], from: GrantSource) => {
    // Only the person's own settings may open a folder that holds a secret place; nothing inferred may.
    if (from !== 'setting' && secret.some((s) => isInside(s, path))) return;
    // Nothing opens any part of Switchboard's data home (its servers.json, caches, conversations), but a
    // bundle's own unpacked folder, read-only, for the bundle that runs from it.
    if (isInside(path, dataHome) && !(from === 'package' && access === 'read' && bundleFolderOf(path, dataHome) === path)) return;
    if (!grants.some((g) => g.path === path && (g.access === access || g.access === 'write'))) grants.push({ path, access, from });
  };
  for (const home of homes) for (const dir of TOOLCHAIN_DIRS) if (existsSync(join(home, dir))) add(join(home, dir), 'read', 'toolchain');
  for (const path of packageRoots(input.command, input.args, input.cwd)) add(bundleFolderOf(path, dataHome) ?? path, 'read', 'package');
  if (input.cwd) add(resolve(input.cwd), 'read', 'working folder');
  const refusedArguments: string[] = [];
  for (const folder of argumentFolders(input.args, input.cwd)) {
    // A folder that holds a secret place (/, a home, the data home's parent) would undo the sandbox.
    if (secret.some((s) => isInside(s, folder)) || isInside(folder, dataHome)) refusedArguments.push(folder);
    else add(folder, 'write', 'argument');
  }
  for (const root of input.roots ?? []) {
    if (secret.some((s) => isInside(s, root)) || isInside(root, dataHome)) refusedArguments.push(root);
    else add(resolve(root), 'write', 'root');
  }
  for (const path of settings?.filesystem.allowRead ?? []) add(expandHome(path, input.home), 'read', 'setting');
  for (const path of settings?.filesystem.allowWrite ?? []) add(expandHome(path, input.home), 'write', 'setting');
  const allowed = settings?.network.allowedDomains ?? [];
  return {
    hidden: secret,
    sealed: [dataHome],
    denyRead: (settings?.filesystem.denyRead ?? []).map((p) => expandHome(p, input.home)),
    grants,
    denyWrite: (settings?.filesystem.denyWrite ?? []).map((p) => expandHome(p, input.home)),
    network: allowed.length ? { kind: 'domains', allowed, denied: settings?.network.deniedDomains ?? [] } : { kind: 'none' },
    refusedArguments,
  };
}

/** The unpacked bundle (`<data home>/bundles/<server>/<version>`) a path lies in, if any: a bundle's package is its whole folder. */
export function bundleFolderOf(path: string, dataHome: string): string | undefined {
  const rel = relative(join(dataHome, 'bundles'), path);
  const parts = rel.split(sep);
  if (rel.startsWith('..') || isAbsolute(rel) || parts.length < 2 || parts[0]!.startsWith('.')) return undefined;
  return join(dataHome, 'bundles', parts[0]!, parts[1]!);
}

/** Absolute (or cwd-relative) arguments that name existing folders: the person pointed the server at them. */
function argumentFolders(args: string[], cwd: string | undefined): string[] {
  const folders: string[] = [];
  for (const arg of args) {
    const value = arg.includes('=') && !arg.startsWith('/') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (!value.startsWith('/') && !value.startsWith('./') && !value.startsWith('../')) continue;
    const path = resolve(cwd ?? '/', value);
    if (isDirectory(path)) folders.push(realOrSelf(path));
  }
  return unique(folders);
}

/** The package a server runs from: its executable's and its script arguments' package roots. */
function packageRoots(command: string, args: string[], cwd: string | undefined): string[] {
  const files = [command, ...args.filter((a) => a.startsWith('/') || a.startsWith('./')).map((a) => resolve(cwd ?? '/', a))];
  const roots: string[] = [];
  for (const file of files) {
    if (!isFile(file)) continue;
    for (const candidate of unique([file, realOrSelf(file)])) {
      const root = packageRoot(candidate);
      roots.push(root, ...enclosingNodeModules(root));
    }
  }
  return unique(roots);
}

/** An installed package finds its dependencies in the node_modules folders above it (npm hoists them there). */
function enclosingNodeModules(root: string): string[] {
  const folders: string[] = [];
  for (let dir = dirname(root); dir !== dirname(dir); dir = dirname(dir)) if (basename(dir) === 'node_modules') folders.push(dir);
  return folders;
}

function packageRoot(file: string): string {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (PACKAGE_MARKERS.some((m) => existsSync(join(dir, m)))) return dir;
  }
  return dirname(file);
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const unique = <T>(values: T[]): T[] => [...new Set(values)];
