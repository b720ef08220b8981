import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { versionOf } from '../../../src-main/core/config/atomic-file';
import { loadConfig } from '../../../src-main/core/config/load-config';
import { addProject } from '../../../src-main/core/config/project-list';

let root: string;
let home: string;
let proj: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-load-'));
  home = join(root, 'home');
  proj = join(root, 'proj');
  await mkdir(home, { recursive: true });
  await mkdir(proj, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, data: unknown): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof data === 'string' ? data : JSON.stringify(data));
}

describe('loadConfig', () => {
  it('loads nothing, with no problems, from an empty data home', async () => {
    const loaded = await loadConfig({ home });
    expect(loaded).toMatchObject({ servers: [], shadowed: {}, problems: [], mcpDisabled: false });
    expect(loaded.files).toEqual([join(home, 'servers.json'), join(home, 'bundles.json'), join(home, 'projects.json')]);
  });

  it('reads installed bundles after servers.json, as a source the person did not write (trust needed)', async () => {
    await put(join(home, 'servers.json'), { servers: { same: { command: 'mine' } } });
    await put(join(home, 'bundles.json'), { servers: { same: { command: 'bundled' }, hello: { command: 'node', args: ['/b/index.js'] } }, bundles: {} });
    const loaded = await loadConfig({ home, projectDirs: [] });
    expect(loaded.servers.map((s) => [s.name, s.source])).toEqual([
      ['same', { path: join(home, 'servers.json'), origin: 'switchboard', userWritten: true }],
      ['hello', { path: join(home, 'bundles.json'), origin: 'bundle', userWritten: false }],
    ]);
    expect(loaded.shadowed).toEqual({ same: [join(home, 'bundles.json')] });
  });

  it('reads servers.json in both our shape and Claude Desktop\'s, with the top-level switch', async () => {
    await put(join(home, 'servers.json'), { disabled: true, servers: { a: { command: 'x' } } });
    let loaded = await loadConfig({ home });
    expect(loaded.mcpDisabled).toBe(true);
    expect(loaded.servers.map((s) => [s.name, s.source])).toEqual([
      ['a', { path: join(home, 'servers.json'), origin: 'switchboard', userWritten: true }],
    ]);
    await put(join(home, 'servers.json'), { mcpServers: { b: { url: 'https://b.example/mcp' } } });
    loaded = await loadConfig({ home });
    expect(loaded.servers.map((s) => s.name)).toEqual(['b']);
  });

  it('reads a project\'s .mcp.json, .vscode/mcp.json and .cursor/mcp.json, each with its source', async () => {
    await put(join(proj, '.mcp.json'), { mcpServers: { m: { command: 'm' } } });
    await put(join(proj, '.vscode/mcp.json'), { servers: { v: { type: 'stdio', command: 'v' } } });
    await put(join(proj, '.cursor/mcp.json'), { mcpServers: { c: { url: 'https://c.example/mcp' } } });
    const loaded = await loadConfig({ home, projectDirs: [proj] });
    expect(loaded.servers.map((s) => [s.name, s.source])).toEqual([
      ['m', { path: join(proj, '.mcp.json'), origin: 'project', userWritten: false }],
      ['v', { path: join(proj, '.vscode/mcp.json'), origin: 'vscode', userWritten: false }],
      ['c', { path: join(proj, '.cursor/mcp.json'), origin: 'cursor', userWritten: false }],
    ]);
    expect(loaded.files).toEqual([
      join(home, 'servers.json'),
      join(home, 'bundles.json'),
      join(proj, '.mcp.json'),
      join(proj, '.vscode/mcp.json'),
      join(proj, '.cursor/mcp.json'),
    ]);
  });

  it('lets the highest-priority source win a name and lists the others as shadowed, never merged', async () => {
    await put(join(home, 'servers.json'), { servers: { gh: { command: 'own', env: { A: '1' } } } });
    await put(join(proj, '.mcp.json'), { mcpServers: { gh: { command: 'mcp', args: ['x'] }, db: { command: 'db-mcp' } } });
    await put(join(proj, '.vscode/mcp.json'), { servers: { gh: { url: 'https://v.example/' }, db: { command: 'db-vscode' } } });
    await put(join(proj, '.cursor/mcp.json'), { mcpServers: { db: { command: 'db-cursor' } } });
    const loaded = await loadConfig({ home, projectDirs: [proj] });
    expect(loaded.servers.map((s) => [s.name, s.kind === 'stdio' ? s.command : s.url])).toEqual([['gh', 'own'], ['db', 'db-mcp']]);
    const gh = loaded.servers[0]!;
    expect(gh.kind === 'stdio' && [gh.args, gh.env]).toEqual([[], { A: '1' }]);
    expect(loaded.shadowed).toEqual({
      gh: [join(proj, '.mcp.json'), join(proj, '.vscode/mcp.json')],
      db: [join(proj, '.vscode/mcp.json'), join(proj, '.cursor/mcp.json')],
    });
  });

  it('gives an earlier project priority over a later one', async () => {
    const other = join(root, 'other');
    await put(join(other, '.mcp.json'), { mcpServers: { s: { command: 'other' } } });
    await put(join(proj, '.mcp.json'), { mcpServers: { s: { command: 'proj' } } });
    const loaded = await loadConfig({ home, projectDirs: [proj, other] });
    expect(loaded.servers.map((s) => s.kind === 'stdio' && s.command)).toEqual(['proj']);
    expect(loaded.shadowed).toEqual({ s: [join(other, '.mcp.json')] });
  });

  it('runs project stdio servers in the project folder and resolves a relative cwd there', async () => {
    await put(join(proj, '.mcp.json'), { mcpServers: { a: { command: 'node' }, b: { command: 'node', cwd: 'tools' }, c: { command: 'node', cwd: '/abs' } } });
    const loaded = await loadConfig({ home, projectDirs: [proj] });
    expect(loaded.servers.map((s) => s.kind === 'stdio' && s.cwd)).toEqual([proj, join(proj, 'tools'), '/abs']);
  });

  it('uses the project list kept in the data home when no folders are given', async () => {
    await put(join(proj, '.mcp.json'), { mcpServers: { p: { command: 'p' } } });
    await addProject(home, proj);
    const loaded = await loadConfig({ home });
    expect(loaded.servers.map((s) => s.name)).toEqual(['p']);
    expect(loaded.files).toContain(join(home, 'projects.json'));
  });

  it('keeps loading other files when one is invalid, and reports the problem with its location', async () => {
    await put(join(home, 'servers.json'), '{ "servers": { "a": { "command": "x" } ');
    await put(join(proj, '.mcp.json'), { mcpServers: { p: { command: 'p' }, bad: { command: 'x', url: 'https://x' } } });
    const loaded = await loadConfig({ home, projectDirs: [proj] });
    expect(loaded.servers.map((s) => s.name)).toEqual(['p']);
    expect(loaded.problems).toEqual([
      { file: join(home, 'servers.json'), line: 1, column: 40, message: `${join(home, 'servers.json')}:1:40: invalid JSON (close brace expected)` },
      { file: join(proj, '.mcp.json'), server: 'bad', line: 1, column: 36, message: 'server "bad": has both "command" and "url"; a server is either local (command) or remote (url)' },
    ]);
  });

  it('reports a project folder that no longer exists', async () => {
    const gone = join(root, 'gone');
    const loaded = await loadConfig({ home, projectDirs: [gone] });
    expect(loaded.problems).toEqual([{ file: gone, message: `project folder ${gone} does not exist or is not a folder; its servers were not loaded` }]);
  });

  it('records the content version of every file it read, "missing" for absent ones', async () => {
    const text = JSON.stringify({ servers: {} });
    await put(join(home, 'servers.json'), text);
    const loaded = await loadConfig({ home, projectDirs: [proj] });
    expect(loaded.versions?.[join(home, 'servers.json')]).toBe(versionOf(text));
    expect(loaded.versions?.[join(proj, '.mcp.json')]).toBe('missing');
  });

  it('keeps the last good servers of a file that became invalid, and says so', async () => {
    const path = join(home, 'servers.json');
    await put(path, { servers: { a: { command: 'a' }, b: { url: 'https://b.example/' } } });
    const previous = await loadConfig({ home, projectDirs: [] });
    await put(path, '{ "servers": { "a": { "command": "a2" }, ');
    const loaded = await loadConfig({ home, projectDirs: [], previous });
    expect(loaded.servers).toEqual(previous.servers);
    expect(loaded.problems.map((p) => p.message)).toEqual([
      `${path}:1:42: invalid JSON (property name expected); the last good settings of a, b stay in use until it is fixed`,
    ]);
  });

  it('keeps the last good version of one entry that became invalid, while the file\'s other edits apply', async () => {
    await put(join(proj, '.mcp.json'), { mcpServers: { a: { command: 'a' }, b: { command: 'b' } } });
    const previous = await loadConfig({ home, projectDirs: [proj] });
    await put(join(proj, '.mcp.json'), { mcpServers: { a: { command: 'a', args: 'oops' }, b: { command: 'b2' } } });
    const loaded = await loadConfig({ home, projectDirs: [proj], previous });
    expect(loaded.servers.map((s) => [s.name, s.kind === 'stdio' && s.command])).toEqual([['b', 'b2'], ['a', 'a']]);
    expect(loaded.problems.map((p) => p.message)).toEqual([
      'server "a": "args" must be an array of strings; its last good settings stay in use until it is fixed',
    ]);
  });

  it('drops a server whose entry was removed, even with a previous config', async () => {
    await put(join(home, 'servers.json'), { servers: { a: { command: 'a' }, b: { command: 'b' } } });
    const previous = await loadConfig({ home, projectDirs: [] });
    await put(join(home, 'servers.json'), { servers: { b: { command: 'b' } } });
    const loaded = await loadConfig({ home, projectDirs: [], previous });
    expect(loaded.servers.map((s) => s.name)).toEqual(['b']);
    expect(loaded.problems).toEqual([]);
  });
});

describe('a file read in mid-write, and a list that cannot be read (issue 21)', () => {
  it.each([
    ['blank', ''],
    ['missing', undefined],
  ])('holds the last servers of a file that reads %s right after it listed them, until a later load confirms that read', async (_what, text) => {
    const file = join(home, 'servers.json');
    await put(file, { servers: { docs: { url: 'https://docs.example/mcp' } } });
    const previous = await loadConfig({ home, projectDirs: [] });
    if (text === undefined) await rm(file);
    else await put(file, text);
    const held = await loadConfig({ home, projectDirs: [], previous });
    expect(held.servers.map((s) => s.name)).toEqual(['docs']);
    expect(held.unsettled).toEqual({ [file]: versionOf(text) });
    expect(held.problems.map((p) => p.message)).toEqual([`${file} reads as empty; its last servers stay in use while it may still be being written`]);
    const confirmed = await loadConfig({ home, projectDirs: [], previous: held, settled: held.unsettled! });
    expect(confirmed.servers).toEqual([]);
    expect(confirmed.problems).toEqual([]);
  });

  it('keeps the last good project folders when projects.json cannot be read, and says so', async () => {
    await put(join(proj, '.mcp.json'), { mcpServers: { tools: { command: 'node' } } });
    await addProject(home, proj);
    const previous = await loadConfig({ home });
    await put(join(home, 'projects.json'), '{"projects": [');
    const loaded = await loadConfig({ home, previous });
    expect(loaded.servers.map((s) => s.name)).toEqual(['tools']);
    expect(loaded.problems.map((p) => p.message)).toEqual([`${join(home, 'projects.json')}: is not valid JSON; the project folders read before stay in use`]);
  });
});
