import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addServer } from '../../../src-main/core/config/config-writer';
import { ConfigWatcher } from '../../../src-main/core/config/config-watcher';
import type { LoadedConfig } from '../../../src-main/core/config/load-config';
import { addProject } from '../../../src-main/core/config/project-list';

let root: string;
let home: string;
let proj: string;
let watcher: ConfigWatcher | undefined;
const changes: LoadedConfig[] = [];
let waiters: { test: (c: LoadedConfig) => boolean; resolve: (c: LoadedConfig) => void }[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-watch-'));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(home, { recursive: true });
  await mkdir(proj, { recursive: true });
  changes.length = 0;
  waiters = [];
});
afterEach(async () => {
  watcher?.stop();
  watcher = undefined;
  await rm(root, { recursive: true, force: true });
});

async function startWatching(projectDirs?: string[]): Promise<LoadedConfig> {
  watcher = new ConfigWatcher({
    home,
    ...(projectDirs ? { projectDirs } : {}),
    debounceMs: 20,
    onChange: (loaded) => {
      changes.push(loaded);
      waiters = waiters.filter((w) => (w.test(loaded) ? (w.resolve(loaded), false) : true));
    },
  });
  return watcher.start();
}

/** Resolves with the first config handed to onChange that passes the test (the test timeout bounds the wait). */
function changeWhere(test: (c: LoadedConfig) => boolean): Promise<LoadedConfig> {
  return new Promise((resolve) => waiters.push({ test, resolve }));
}
const names = (c: LoadedConfig) => c.servers.map((s) => s.name).join(',');

async function put(path: string, data: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof data === 'string' ? data : JSON.stringify(data));
}

describe('ConfigWatcher', () => {
  it('hands the initial config to onChange, then a new one after an outside edit', async () => {
    await put(join(home, 'servers.json'), { servers: { a: { command: 'a' } } });
    const initial = await startWatching([]);
    expect(names(initial)).toBe('a');
    expect(changes).toEqual([initial]);
    const next = changeWhere((c) => names(c) === 'a,b');
    await put(join(home, 'servers.json'), { servers: { a: { command: 'a' }, b: { command: 'b' } } });
    expect(names(await next)).toBe('a,b');
  });

  it('sees a file replaced by rename, as editors and our own writer save', async () => {
    await startWatching([]);
    const next = changeWhere((c) => names(c) === 'w');
    await addServer(home, 'w', { command: 'w' });
    await next;
    const renamed = changeWhere((c) => names(c) === 'r');
    await writeFile(join(home, 'tmp-save'), JSON.stringify({ servers: { r: { command: 'r' } } }));
    await rename(join(home, 'tmp-save'), join(home, 'servers.json'));
    await renamed;
  });

  it('sees a project file created in a folder that did not exist (.vscode/mcp.json)', async () => {
    await startWatching([proj]);
    expect(watcher!.watching()).toEqual([home, proj].sort());
    const next = changeWhere((c) => names(c) === 'v');
    await put(join(proj, '.vscode', 'mcp.json'), { servers: { v: { type: 'stdio', command: 'v' } } });
    const loaded = await next;
    expect(loaded.servers[0]!.source.path).toBe(join(proj, '.vscode', 'mcp.json'));
    // Now that .vscode exists it is watched itself, so later edits inside it are seen.
    await expect.poll(() => watcher!.watching()).toContain(join(proj, '.vscode'));
    const edited = changeWhere((c) => names(c) === 'v2');
    await put(join(proj, '.vscode', 'mcp.json'), { servers: { v2: { type: 'stdio', command: 'v' } } });
    await edited;
  });

  it('starts watching a project added to projects.json', async () => {
    await put(join(proj, '.mcp.json'), { mcpServers: { p: { command: 'p' } } });
    await startWatching();
    const added = changeWhere((c) => names(c) === 'p');
    await addProject(home, proj);
    await added;
    const edited = changeWhere((c) => names(c) === 'p2');
    await put(join(proj, '.mcp.json'), { mcpServers: { p2: { command: 'p' } } });
    await edited;
  });

  it('keeps the last good servers when a file turns invalid, shows the problem, and never rewrites it', async () => {
    const path = join(home, 'servers.json');
    await put(path, { servers: { a: { command: 'a' } } });
    const initial = await startWatching([]);
    const broken = '{ "servers": { "a": { "command": "a2" }';
    const next = changeWhere((c) => c.problems.length > 0);
    await writeFile(path, broken);
    const loaded = await next;
    expect(loaded.servers).toEqual(initial.servers);
    expect(loaded.problems.map((p) => p.message)).toEqual([
      `${path}:1:${broken.length + 1}: invalid JSON (close brace expected); the last good settings of a stay in use until it is fixed`,
    ]);
    expect(await readFile(path, 'utf8')).toBe(broken);
    const fixed = changeWhere((c) => c.problems.length === 0);
    await put(path, { servers: { a: { command: 'a3' } } });
    const after = await fixed;
    expect(after.servers.map((s) => s.kind === 'stdio' && s.command)).toEqual(['a3']);
  });

  it('skips onChange when a reload finds nothing new', async () => {
    await put(join(home, 'servers.json'), { servers: { a: { command: 'a' } } });
    await startWatching([]);
    await watcher!.reload();
    await watcher!.reload();
    expect(changes).toHaveLength(1);
  });

  it('closes every directory watch on stop', async () => {
    await startWatching([proj]);
    expect(watcher!.watching().length).toBeGreaterThan(0);
    watcher!.stop();
    expect(watcher!.watching()).toEqual([]);
  });
});
