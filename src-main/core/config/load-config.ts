import { stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { ConfigProblem } from '../../../src-preload/contract';
import { bundlesFile, serversFile } from '../data-home';
import { versionOf, type FileVersion } from './atomic-file';
import { projectsFile, readProjects } from './project-list';
import { namespaceClashes } from './provenance';
import { readConfigFile } from './read-config-file';
import type { ConfigSource, ServerConfig } from './server-config';

export interface LoadedConfig {
  /** The winning entry for each name, highest-priority source first. */
  servers: ServerConfig[];
  /** name -> source paths of lower-priority entries with the same name (listed, never merged). */
  shadowed: Record<string, string[]>;
  problems: ConfigProblem[];
  /** MCP switched off as a whole in Switchboard's own file. */
  mcpDisabled: boolean;
  /** Every file consulted, for watching (missing ones too: creating them is a change). */
  files: string[];
  /** path -> content version (SHA-256, or "missing") as read, so a write can tell the file changed since. */
  versions?: Record<string, FileVersion>;
  /** The project folders read (from projects.json unless given), so a broken list keeps the last good one. */
  projectDirs?: string[];
  /**
   * Files that read as empty (blank or missing) right after they listed servers: an editor may be halfway
   * through a save (truncate, then write). Their last servers stay in use; path -> the version read, which
   * a later load may confirm (LoadConfigOptions.settled) once the file kept it a while.
   */
  unsettled?: Record<string, FileVersion>;
}

export interface LoadConfigOptions {
  home: string;
  /**
   * Folders the user opened as projects; their .mcp.json, .vscode/mcp.json and .cursor/mcp.json are read.
   * When omitted, the list kept in the data home (projects.json) is used.
   */
  projectDirs?: string[];
  /**
   * The config in use before this load. A file (or one entry) that became invalid keeps its last
   * good servers from here, with the problem shown, so a typo mid-edit does not stop a running server.
   */
  previous?: LoadedConfig;
  /** path -> version of an empty read that stayed so long enough: the person emptied the file, so it applies. */
  settled?: Record<string, FileVersion>;
}

/** The config files of one project folder, highest priority first. None is written by the user through Switchboard. */
export function projectSources(dir: string): ConfigSource[] {
  return [
    { path: join(dir, '.mcp.json'), origin: 'project', userWritten: false },
    { path: join(dir, '.vscode', 'mcp.json'), origin: 'vscode', userWritten: false },
    { path: join(dir, '.cursor', 'mcp.json'), origin: 'cursor', userWritten: false },
  ];
}

const NONE_READ = /; no project folders were read$/;

export const ownSource = (home: string): ConfigSource => ({ path: serversFile(home), origin: 'switchboard', userWritten: true });
/** Servers installed from bundles: Switchboard writes the file, but the person approves each before it runs (P1). */
export const bundleSource = (home: string): ConfigSource => ({ path: bundlesFile(home), origin: 'bundle', userWritten: false });

/**
 * Everything the user has configured, by precedence: Switchboard's own servers.json, installed bundles, then each
 * project folder in the order it was added (.mcp.json > .vscode/mcp.json > .cursor/mcp.json).
 * One name in several files: the first wins, the others are listed in `shadowed`, never merged.
 */
export async function loadConfig({ home, projectDirs, previous, settled = {} }: LoadConfigOptions): Promise<LoadedConfig> {
  const loaded: Required<LoadedConfig> = { servers: [], shadowed: {}, problems: [], mcpDisabled: false, files: [], versions: {}, projectDirs: [], unsettled: {} };
  const seen = new Set<string>();
  const readFileInto = (source: ConfigSource) => readSource(loaded, source, previous, settled);

  const own = ownSource(home);
  const ownFile = await readFileInto(own);
  loaded.mcpDisabled = (ownFile.invalid || own.path in loaded.unsettled) && previous ? previous.mcpDisabled : ownFile.mcpDisabled;
  addServers(loaded, seen, ownFile.servers);
  addServers(loaded, seen, (await readFileInto(bundleSource(home))).servers);

  let dirs = projectDirs;
  if (dirs === undefined) {
    const list = await readProjects(home);
    loaded.files.push(projectsFile(home));
    // A list that cannot be read right now is not a list of nothing: the last good one stays (SECURITY S2).
    const keep = list.problems.length > 0 && previous?.projectDirs !== undefined && previous.projectDirs.length > 0;
    loaded.problems.push(...list.problems.map((p) => (keep ? { ...p, message: p.message.replace(NONE_READ, '; the project folders read before stay in use') } : p)));
    dirs = keep ? previous.projectDirs! : list.projects;
  }
  loaded.projectDirs = dirs;
  for (const dir of dirs) {
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) {
      loaded.problems.push({ file: dir, message: `project folder ${dir} does not exist or is not a folder; its servers were not loaded` });
    }
    for (const source of projectSources(dir)) {
      const file = await readFileInto(source);
      addServers(loaded, seen, file.servers.map((server) => inProject(server, dir)));
    }
  }
  for (const { server, message } of namespaceClashes(loaded.servers)) {
    loaded.servers.splice(loaded.servers.indexOf(server), 1);
    loaded.problems.push({ file: server.source.path, server: server.name, message });
  }
  return loaded;
}

async function readSource(loaded: Required<LoadedConfig>, source: ConfigSource, previous: LoadedConfig | undefined, settled: Record<string, FileVersion>) {
  const file = await readConfigFile(source);
  const version = versionOf(file.text);
  loaded.files.push(source.path);
  loaded.versions[source.path] = version;
  loaded.problems.push(...file.problems);
  if (!previous) return file;
  const lastGood = previous.servers.filter((s) => s.source.path === source.path);
  // Blank or missing right after it listed servers: likely mid-save. Nothing is removed (nor its credentials) until it stays so.
  if (lastGood.length > 0 && (file.text ?? '').trim() === '' && settled[source.path] !== version) {
    loaded.unsettled[source.path] = version;
    loaded.problems.push({ file: source.path, message: `${source.path} reads as empty; its last servers stay in use while it may still be being written` });
    return { ...file, servers: lastGood };
  }
  const kept = file.invalid
    ? lastGood
    : lastGood.filter((s) => file.problems.some((p) => p.server === s.name) && !file.servers.some((n) => n.name === s.name));
  if (kept.length === 0) return file;
  // What follows from the fault is said with it, not as a problem of its own (issue 23 item 10: a banner counted it).
  if (file.invalid && file.problems[0]) {
    file.problems[0].message += `; the last good settings of ${kept.map((s) => s.name).join(', ')} stay in use until it is fixed`;
  } else {
    for (const problem of file.problems) if (kept.some((s) => s.name === problem.server)) problem.message += '; its last good settings stay in use until it is fixed';
  }
  // Kept entries follow the file's valid ones; precedence between files is unchanged.
  return { ...file, servers: [...file.servers, ...kept] };
}

function addServers(loaded: Required<LoadedConfig>, seen: Set<string>, servers: ServerConfig[]): void {
  for (const server of servers) {
    if (seen.has(server.name)) {
      (loaded.shadowed[server.name] ??= []).push(server.source.path);
    } else {
      seen.add(server.name);
      loaded.servers.push(server);
    }
  }
}

/** A project's local servers run in the project folder, as Claude Code and VS Code run them; relative cwds resolve there. */
function inProject(server: ServerConfig, dir: string): ServerConfig {
  if (server.kind !== 'stdio') return server;
  if (server.cwd === undefined) return { ...server, cwd: dir };
  if (isAbsolute(server.cwd) || server.cwd.startsWith('$') || server.cwd.startsWith('~')) return server;
  return { ...server, cwd: resolve(dir, server.cwd) };
}
