import { readFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';
import { KeytarVault, keychainServiceFor } from '../../src-main/core/secrets/keytar-vault';
import { pidsWith } from '../support/processes';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
/** Servers take a moment to start, and a stop waits out a grace period before SIGTERM. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const missing = chromiumMissingReason();
if (missing) console.warn(`web servers management e2e skipped: ${missing}`);

const serversJson = (home: string) => join(home, 'servers.json');
/** A row's secondary action, chosen from its menu. */
async function menuAction(page: Page, server: string, action: string): Promise<void> {
  await page.locator(`[data-server="${server}"]`).getByRole('button', { name: `More actions for ${server}` }).click();
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

describe.skipIf(missing !== undefined)('managing servers in the servers view (web mode, Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(app: RunningWebApp): Promise<{ page: Page; pageErrors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    return { page, pageErrors };
  }

  const row = (page: Page, name: string) => page.locator(`[data-server="${name}"]`);
  const stateOf = (page: Page, name: string) => () => row(page, name).getAttribute('data-state');

  it('adds a local server through the form (args as a list, env rows) and it connects', async () => {
    const app = await startWebApp();
    try {
      const { page, pageErrors } = await open(app);
      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByLabel('Name', { exact: true }).fill('everything');
      await form.getByLabel('Command', { exact: true }).fill(process.execPath);
      await form.getByRole('button', { name: 'Add argument' }).click();
      await form.getByLabel('Argument 1', { exact: true }).fill(everything);
      await form.getByRole('button', { name: 'Add argument' }).click();
      await form.getByLabel('Argument 2', { exact: true }).fill('stdio');
      await form.getByRole('button', { name: 'Add variable' }).click();
      await form.getByLabel('variable 1 name', { exact: true }).fill('GREETING');
      await form.getByLabel('variable 1 value', { exact: true }).fill('hello world');
      await form.getByLabel('Tool timeout', { exact: true }).fill('60');
      await page.screenshot({ path: 'test-results/servers-add-form.png' });
      await form.getByRole('button', { name: 'Add server' }).click();

      await poll(stateOf(page, 'everything')).toBe('connected');
      expect(await form.count()).toBe(0); // the form closes once the core took the server
      const written = JSON.parse(await readFile(serversJson(app.home), 'utf8')) as { servers: Record<string, unknown> };
      expect(written.servers.everything).toEqual({ command: process.execPath, args: [everything, 'stdio'], env: { GREETING: 'hello world' }, toolTimeout: 60 });
      // The row stays one line: its file is named once, in its details (issue 23 item 5).
      expect(await row(page, 'everything').innerText()).not.toContain(serversJson(app.home));

      // Its tools can be switched off one by one; the choice is kept in the data home.
      await row(page, 'everything').getByRole('button', { name: 'Tools' }).click();
      const tools = page.getByRole('region', { name: 'Tools of everything' });
      await tools.getByLabel('Disable tool echo', { exact: true }).uncheck();
      await poll(() => tools.getByLabel('Enable tool echo', { exact: true }).count()).toBe(1);
      expect(JSON.parse(await readFile(join(app.home, 'tool-settings.json'), 'utf8'))).toEqual({ disabled: { everything: ['echo'] }, pinned: { servers: [], tools: {} }, budget: { threshold: 10_000, mode: 'auto' } });
      await row(page, 'everything').getByRole('button', { name: 'Logs' }).click();
      await page.getByRole('region', { name: 'Logs of everything' }).waitFor();
      expect(pageErrors).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it("shows the core's exact message for a bad name, a duplicate and a pasted entry with both command and url, and leaves servers.json byte for byte", async () => {
    const original = '// written by hand\n{\n  "servers": {\n    "keep": { "command": "node", "args": ["--version"], "enabled": false }, // stays\n  }\n}\n';
    const app = await startWebApp(async (home) => writeFile(serversJson(home), original));
    try {
      const { page } = await open(app);
      await poll(stateOf(page, 'keep')).toBe('disabled');

      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByLabel('Name', { exact: true }).fill('bad name!');
      await form.getByLabel('Command', { exact: true }).fill('node');
      await form.getByRole('button', { name: 'Add server' }).click();
      await poll(() => form.getByRole('alert').innerText())
        .toBe('addServer: invalid payload at "name": server name may use only letters, digits, "_", "." and "-"');

      await form.getByLabel('Name', { exact: true }).fill('keep');
      await form.getByRole('button', { name: 'Add server' }).click();
      await poll(() => form.getByRole('alert').innerText()).toBe('server "keep" already exists in servers.json');

      // The form's own check: nothing reaches the core without a command.
      await form.getByLabel('Command', { exact: true }).fill('');
      await form.getByRole('button', { name: 'Add server' }).click();
      await poll(() => form.getByRole('alert').innerText()).toBe('the command is empty');

      // A remote server whose URL is not http(s): the core names the field and the scheme.
      await form.getByLabel('Name', { exact: true }).fill('files');
      await form.getByLabel('Remote (a URL)', { exact: true }).check();
      await form.getByLabel('URL', { exact: true }).fill('ftp://files.example.com/mcp');
      await form.getByRole('button', { name: 'Add header' }).click();
      await form.getByLabel('header 1 name', { exact: true }).fill('Authorization');
      await form.getByLabel('header 1 value', { exact: true }).fill('Bearer ${secret:FILES_TOKEN}');
      await form.getByRole('button', { name: 'Add server' }).click();
      await poll(() => form.getByRole('alert').innerText()).toBe('server "files": "url" must be http or https, not ftp');

      await page.getByRole('button', { name: 'Paste JSON' }).click();
      const paste = page.getByRole('region', { name: 'Paste servers' });
      await paste.getByLabel('Snippet', { exact: true }).fill('{"mcpServers": {"fine": {"command": "node"}, "both": {"command": "x", "url": "https://example.com/mcp"}}}');
      await poll(() => paste.getByRole('list', { name: 'Servers to add' }).getByRole('listitem').count()).toBe(2);
      await paste.getByRole('button', { name: 'Add 2 servers' }).click();
      await poll(() => paste.getByRole('alert').innerText())
        .toBe('server "both": has both "command" and "url"; a server is either local (command) or remote (url)');

      expect(await readFile(serversJson(app.home), 'utf8')).toBe(original);
      // All or nothing: "fine" was not added either, and the list is as it was.
      expect(await page.getByRole('list', { name: 'Configured servers' }).locator('[data-server]').count()).toBe(1);
    } finally {
      await app.stop();
    }
  });

  it('editing one server restarts only that server, and a masked env value is kept as stored', async () => {
    const config = {
      servers: {
        alpha: { command: process.execPath, args: [everything, 'stdio', 'marker-alpha'] },
        beta: { command: process.execPath, args: [everything, 'stdio', 'marker-beta-1'], env: { API_TOKEN: 'very-secret-token' } },
      },
    };
    const app = await startWebApp(async (home) => writeFile(serversJson(home), JSON.stringify(config, null, 2)));
    try {
      const { page } = await open(app);
      await poll(stateOf(page, 'alpha')).toBe('connected');
      await poll(stateOf(page, 'beta')).toBe('connected');
      const alphaPids = await pidsWith('marker-alpha');
      expect(alphaPids).toHaveLength(1);
      expect(await pidsWith('marker-beta-1')).toHaveLength(1);

      await menuAction(page, 'beta', 'Edit');
      const form = page.getByRole('form', { name: 'Edit beta' });
      expect(await form.getByLabel('Argument 3', { exact: true }).inputValue()).toBe('marker-beta-1');
      expect(await form.getByLabel('variable 1 name', { exact: true }).inputValue()).toBe('API_TOKEN');
      expect(await form.getByLabel('variable 1 value', { exact: true }).inputValue()).toBe(''); // the secret never reaches the page
      await form.getByLabel('Argument 3', { exact: true }).fill('marker-beta-2');
      await page.screenshot({ path: 'test-results/servers-edit-form.png' });
      await form.getByRole('button', { name: 'Save changes' }).click();

      await poll(() => pidsWith('marker-beta-2')).toHaveLength(1);
      await poll(stateOf(page, 'beta')).toBe('connected');
      await poll(() => pidsWith('marker-beta-1')).toEqual([]);
      expect(await pidsWith('marker-alpha')).toEqual(alphaPids);
      expect(await stateOf(page, 'alpha')()).toBe('connected');

      const written = JSON.parse(await readFile(serversJson(app.home), 'utf8')) as typeof config;
      expect(written.servers.beta).toEqual({ command: process.execPath, args: [everything, 'stdio', 'marker-beta-2'], env: { API_TOKEN: 'very-secret-token' } });
      expect(written.servers.alpha).toEqual(config.servers.alpha);
      expect(await page.content()).not.toContain('very-secret-token');
    } finally {
      await app.stop();
    }
  });

  it('disables, enables and removes a server, each written to servers.json', async () => {
    const config = { servers: { gamma: { command: process.execPath, args: [everything, 'stdio', 'marker-gamma'] } } };
    const app = await startWebApp(async (home) => writeFile(serversJson(home), JSON.stringify(config, null, 2)));
    const read = async () => (JSON.parse(await readFile(serversJson(app.home), 'utf8')) as { servers: Record<string, Record<string, unknown>> }).servers;
    try {
      const { page } = await open(app);
      const gamma = row(page, 'gamma');
      await poll(stateOf(page, 'gamma')).toBe('connected');

      await gamma.getByLabel('Disable gamma', { exact: true }).uncheck();
      await poll(stateOf(page, 'gamma')).toBe('disabled');
      expect((await read()).gamma?.enabled).toBe(false);
      await poll(() => pidsWith('marker-gamma')).toEqual([]);

      await gamma.getByLabel('Enable gamma', { exact: true }).check();
      await poll(stateOf(page, 'gamma')).toBe('connected');
      expect((await read()).gamma?.enabled).toBe(true);

      await menuAction(page, 'gamma', 'Remove');
      const confirm = gamma.getByRole('group', { name: 'Remove gamma?' });
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      expect(await read()).toHaveProperty('gamma');
      await menuAction(page, 'gamma', 'Remove');
      await confirm.getByRole('button', { name: 'Remove' }).click();
      await poll(() => gamma.count()).toBe(0);
      expect(await read()).toEqual({});
      await poll(() => pidsWith('marker-gamma')).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it('previews a pasted Claude Desktop snippet, then adds its servers', async () => {
    const app = await startWebApp();
    try {
      const { page } = await open(app);
      await page.getByRole('button', { name: 'Paste JSON' }).click();
      const paste = page.getByRole('region', { name: 'Paste servers' });
      const snippet = {
        mcpServers: {
          pasted: { command: process.execPath, args: [everything, 'stdio'], env: { SOME_KEY: 'not shown' } },
          far: { url: 'http://127.0.0.1:9/mcp', headers: { Authorization: 'Bearer nope' } },
        },
      };
      await paste.getByLabel('Snippet', { exact: true }).fill(JSON.stringify(snippet, null, 2));
      const preview = paste.getByRole('list', { name: 'Servers to add' });
      await poll(() => preview.locator('[data-preview]').count()).toBe(2);
      const pasted = preview.locator('[data-preview="pasted"]');
      expect(await pasted.locator('[data-field="command"]').innerText()).toBe(process.execPath);
      expect(await pasted.locator('[data-field="args"] li').allInnerTexts()).toEqual([everything, 'stdio']);
      expect(await pasted.locator('[data-field="env"]').innerText()).toBe('SOME_KEY');
      expect(await preview.locator('[data-preview="far"] [data-field="url"]').innerText()).toBe('http://127.0.0.1:9/mcp');
      expect(await paste.innerText()).not.toContain('not shown');
      // Nothing is written before Add.
      await expect(readFile(serversJson(app.home), 'utf8')).rejects.toThrow(/ENOENT/);

      await paste.screenshot({ path: 'test-results/servers-paste.png' });
      await paste.getByRole('button', { name: 'Add 2 servers' }).click();
      await poll(() => paste.getByRole('status').innerText()).toBe('Added pasted, far.');
      await poll(stateOf(page, 'pasted')).toBe('connected');
      expect(await row(page, 'far').count()).toBe(1);
      const written = JSON.parse(await readFile(serversJson(app.home), 'utf8')) as { servers: Record<string, unknown> };
      expect(written.servers).toEqual(snippet.mcpServers);
    } finally {
      await app.stop();
    }
  });

  it('shows an outside edit of servers.json without a reload', async () => {
    const app = await startWebApp(async (home) => writeFile(serversJson(home), '{ "servers": {} }\n'));
    try {
      const { page } = await open(app);
      await page.getByText('No servers configured yet.').waitFor();
      await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
      await writeFile(serversJson(app.home), JSON.stringify({ servers: { outside: { command: process.execPath, args: [everything, 'stdio'] } } }));
      await poll(stateOf(page, 'outside')).toBe('connected');
      expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    } finally {
      await app.stop();
    }
  });

  it('imports the servers picked from the Claude Desktop preview, then VS Code\'s under a free name with its password input in the keychain', async () => {
    const xdg = await mkdtemp(join(tmpdir(), 'switchboard-claude-'));
    const claudeConfig = {
      mcpServers: {
        first: { command: 'node', args: ['--version', 'an argument with spaces'] },
        second: { command: 'uvx', args: ['mcp-server-fetch'], env: { FETCH_TOKEN: 'hidden-value' } },
      },
    };
    await mkdir(join(xdg, 'Claude'));
    const claudePath = join(xdg, 'Claude', 'claude_desktop_config.json');
    await writeFile(claudePath, JSON.stringify(claudeConfig));
    // VS Code's user mcp.json, as its docs shape it: a password input, and a name servers.json will already have.
    const vscodeConfig = {
      inputs: [{ type: 'promptString', id: 'notes-key', description: 'Notes API key', password: true }],
      servers: {
        first: { type: 'stdio', command: 'node', args: ['--version'] },
        notes: { type: 'stdio', command: 'node', args: ['--version'], env: { NOTES_KEY: '${input:notes-key}' } },
      },
    };
    await mkdir(join(xdg, 'Code', 'User'), { recursive: true });
    const vscodePath = join(xdg, 'Code', 'User', 'mcp.json');
    await writeFile(vscodePath, JSON.stringify(vscodeConfig));
    // The app finds Claude Desktop's file through XDG_CONFIG_HOME, which it reads from the environment it starts with.
    const previous = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = xdg;
    const app = await startWebApp().finally(() => {
      if (previous === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = previous;
    });
    try {
      const { page } = await open(app);
      await page.getByRole('button', { name: 'Import from another app' }).click();
      const panel = page.getByRole('region', { name: 'Import from another app' });
      const list = panel.getByRole('list', { name: 'Servers to import' });
      await poll(() => list.locator('[data-import]').count()).toBe(2);
      expect(await panel.innerText()).toContain(claudePath);
      expect(await list.locator('[data-import="first"] [data-field="args"] li').allInnerTexts()).toEqual(claudeConfig.mcpServers.first.args);
      expect(await list.locator('[data-import="second"] [data-field="command"]').innerText()).toBe('uvx');
      expect(await panel.innerText()).not.toContain('hidden-value');

      await list.locator('[data-import="second"]').getByRole('checkbox').uncheck();
      await panel.getByRole('button', { name: 'Import 1 server' }).click();
      await poll(() => panel.getByRole('status').innerText()).toBe('Imported first.');
      const written = JSON.parse(await readFile(serversJson(app.home), 'utf8')) as { servers: Record<string, unknown> };
      expect(written.servers).toEqual({ first: claudeConfig.mcpServers.first });
      await poll(() => row(page, 'first').count()).toBe(1);
      // Claude Desktop's own file is never written.
      expect(JSON.parse(await readFile(claudePath, 'utf8'))).toEqual(claudeConfig);

      await panel.getByRole('tab', { name: 'VS Code' }).click();
      await poll(() => panel.innerText()).toContain(vscodePath);
      await poll(() => list.locator('[data-import]').count()).toBe(2);
      expect(await panel.getByLabel('Import first as').inputValue()).toBe('first-2');
      expect(await list.locator('[data-import="notes"] [data-field="env"]').innerText()).toBe('NOTES_KEY');
      const key = panel.locator('[data-input="notes-key"] input');
      expect(await key.getAttribute('type')).toBe('password');
      await key.fill('notes-secret-42');
      await page.screenshot({ path: 'test-results/import-vscode.png', fullPage: true });
      await panel.getByRole('button', { name: 'Import 2 servers' }).click();
      await poll(() => panel.getByRole('status').innerText()).toBe('Imported first-2, notes.');
      // The success note clears itself (issue 23 item 10); it does not linger over the next import.
      await expect.poll(() => panel.getByText('Imported first-2, notes.').count(), { timeout: 30_000 }).toBe(0);
      const after = await readFile(serversJson(app.home), 'utf8');
      expect(JSON.parse(after).servers).toMatchObject({
        first: claudeConfig.mcpServers.first,
        'first-2': vscodeConfig.servers.first,
        notes: { env: { NOTES_KEY: '${secret:import.vscode.notes-key}' } },
      });
      expect(after).not.toContain('notes-secret-42');
      expect(await new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: app.home })).get('import.vscode.notes-key')).toBe('notes-secret-42');
    } finally {
      await app.stop();
      await rm(xdg, { recursive: true, force: true });
    }
  });
});
