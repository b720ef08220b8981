import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claudeDesktopConfigPath, importClaudeDesktop, previewClaudeDesktopImport } from '../../../src-main/core/config/claude-desktop';

let root: string;
let home: string;
let claude: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-claude-'));
  home = join(root, 'home');
  claude = join(root, 'claude_desktop_config.json');
  await mkdir(home, { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('claudeDesktopConfigPath', () => {
  it('follows each OS', () => {
    expect(claudeDesktopConfigPath({ HOME: '/Users/a' }, 'darwin')).toBe('/Users/a/Library/Application Support/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ HOME: '/home/a' }, 'linux')).toBe('/home/a/.config/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ HOME: '/home/a', XDG_CONFIG_HOME: '/x' }, 'linux')).toBe('/x/Claude/claude_desktop_config.json');
    expect(claudeDesktopConfigPath({ HOME: 'C:\\Users\\a', APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'win32')).toContain('Claude');
  });
});

describe('previewClaudeDesktopImport', () => {
  it('lists the valid entries servers.json lacks, as written, and touches no file', async () => {
    const claudeText = JSON.stringify({
      globalShortcut: 'x',
      mcpServers: {
        fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], custom: 1 },
        mine: { command: 'other' },
        bad: { command: 'x', url: 'https://x.example' },
      },
    });
    const ownText = JSON.stringify({ servers: { mine: { command: 'mine' } } });
    await writeFile(claude, claudeText);
    await writeFile(join(home, 'servers.json'), ownText);
    const preview = await previewClaudeDesktopImport(home, claude);
    expect(preview).toEqual({
      path: claude,
      found: true,
      toAdd: [{ name: 'fs', entry: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], custom: 1 } }],
      alreadyPresent: ['mine'],
      problems: [{ file: claude, server: 'bad', line: 1, column: claudeText.indexOf('"bad"') + 1, message: 'server "bad": has both "command" and "url"; a server is either local (command) or remote (url)' }],
    });
    expect(await readFile(claude, 'utf8')).toBe(claudeText);
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
  });

  it('says the file was not found when Claude Desktop has no config', async () => {
    expect(await previewClaudeDesktopImport(home, claude)).toEqual({ path: claude, found: false, toAdd: [], alreadyPresent: [], problems: [] });
  });
});

describe('importClaudeDesktop', () => {
  const claudeText = JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['fs'] }, mem: { command: 'mem' }, mine: { command: 'theirs' } } });
  const ownText = '// mine\n{ "servers": { "mine": { "command": "mine" } } }\n';

  beforeEach(async () => {
    await writeFile(claude, claudeText);
    await writeFile(join(home, 'servers.json'), ownText);
  });

  it('copies the picked entries into servers.json on request, never overwriting one it has', async () => {
    expect(await importClaudeDesktop(home, { path: claude, names: ['fs'] })).toEqual(['fs']);
    expect(await importClaudeDesktop(home, { path: claude })).toEqual(['mem']);
    const text = await readFile(join(home, 'servers.json'), 'utf8');
    expect(text.startsWith('// mine\n')).toBe(true);
    expect(JSON.parse(text.slice('// mine\n'.length))).toEqual({
      servers: { mine: { command: 'mine' }, fs: { command: 'npx', args: ['fs'] }, mem: { command: 'mem' } },
    });
    expect(await readFile(claude, 'utf8')).toBe(claudeText);
  });

  it.each([
    [['mine'], 'cannot import server "mine" from Claude Desktop: servers.json already has it'],
    [['ghost'], 'cannot import server "ghost" from Claude Desktop: it is not a valid server in that file'],
    [[], 'nothing to import from Claude Desktop: no server was picked'],
  ])('refuses %j with an exact message and changes no file', async (names, message) => {
    await expect(importClaudeDesktop(home, { path: claude, names })).rejects.toMatchObject({ message });
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
    expect(await readFile(claude, 'utf8')).toBe(claudeText);
  });

  it('refuses when Claude Desktop has no config file', async () => {
    const missing = join(root, 'nope.json');
    await expect(importClaudeDesktop(home, { path: missing })).rejects.toMatchObject({ message: `Claude Desktop's config was not found at ${missing}` });
    expect(await readFile(join(home, 'servers.json'), 'utf8')).toBe(ownText);
  });
});
