import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';
import { pidsWith } from '../support/processes';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const toolbox = join(process.cwd(), 'test/fixtures/servers/toolbox.mjs');
/** Servers take a moment to start, and a stop waits out a grace period before SIGTERM. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const missing = chromiumMissingReason();
if (missing) console.warn(`web servers projects e2e skipped: ${missing}`);
// A remote server connects through the OAuth provider, which needs the OS keychain.
const noKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1' ? undefined : 'no test keychain (run under bash test/with-keychain.sh)';
if (!missing && noKeychain) console.warn(`rich servers list e2e skipped: ${noKeychain}`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything over streamable HTTP on 127.0.0.1, for a remote server that really connects. */
async function startRemoteEverything(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [everything, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening on port ${port}`)) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${output}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

describe.skipIf(missing !== undefined)('project servers and trust in the servers view (web mode, Chromium)', () => {
  let browser: Browser;
  let project: string;
  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(app: RunningWebApp, height = 900): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height } });
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'Servers' }).waitFor();
    return page;
  }
  const row = (page: Page, name: string) => page.locator(`[data-server="${name}"]`);
  const stateOf = (page: Page, name: string) => () => row(page, name).getAttribute('data-state');
  /** Every state of `name` the page is sent from now on (on sockets opened from now): the first list and each change after it. */
  const statesSent = (page: Page, name: string): string[] => {
    const shown: string[] = [];
    const pattern = new RegExp(`"name":${JSON.stringify(name)}[^}]*?"state":"(\\w+)"`, 'g');
    page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => shown.push(...[...String(payload).matchAll(pattern)].map((m) => m[1]!))));
    return shown;
  };
  const projectEntry = (marker: string) => ({
    mcpServers: { proj: { command: process.execPath, args: [everything, 'stdio', marker], env: { PROJECT_KEY: 'value-in-file' }, cwd: project } },
  });

  it('holds a project stdio server until approved, showing exactly what would run; approval is revocable and a change asks again', async () => {
    project = await mkdtemp(join(tmpdir(), 'switchboard-project-'));
    await writeFile(join(project, '.mcp.json'), JSON.stringify(projectEntry('marker-proj-1'), null, 2));
    const app = await startWebApp();
    try {
      const page = await open(app);
      const projects = page.getByRole('region', { name: 'Projects' });
      await projects.getByLabel('Project folder path').fill(join(project, 'missing'));
      await projects.getByRole('button', { name: 'Add project' }).click();
      await poll(() => projects.getByRole('alert').innerText()).toBe(`project folder does not exist: ${join(project, 'missing')}`);
      await projects.getByLabel('Project folder path').fill(project);
      await projects.getByRole('button', { name: 'Add project' }).click();
      await poll(() => projects.getByRole('list', { name: 'Project folders' }).innerText()).toContain(project);

      const proj = row(page, 'proj');
      await poll(stateOf(page, 'proj')).toBe('trust_required');
      const card = proj.getByRole('region', { name: 'Approve proj' });
      await poll(() => card.locator('[data-field="source"]').count()).toBe(1);
      expect(await card.locator('[data-field="command"]').innerText()).toBe(process.execPath);
      expect(await card.locator('[data-field="args"] li').allInnerTexts()).toEqual([everything, 'stdio', 'marker-proj-1']);
      expect(await card.locator('[data-field="env"]').innerText()).toBe('PROJECT_KEY');
      expect(await card.locator('[data-field="cwd"]').innerText()).toBe(project);
      expect(await card.locator('[data-field="source"]').innerText()).toBe(join(project, '.mcp.json'));
      expect(await card.innerText()).not.toContain('value-in-file');
      // A project's file is the project's: no edit, remove or switch here.
      await proj.getByRole('button', { name: 'More actions for proj' }).click();
      const menu = page.getByRole('menu', { name: 'More actions for proj' });
      expect(await menu.getByRole('menuitem', { name: 'Edit' }).count()).toBe(0);
      expect(await menu.getByRole('menuitem', { name: 'Remove' }).count()).toBe(0);
      await menu.getByRole('menuitem', { name: 'Details' }).click();
      await poll(() => page.getByRole('region', { name: 'About proj' }).innerText()).toContain('Defined in this project file: change or remove it there.');
      await proj.screenshot({ path: 'test-results/servers-trust-card.png' });
      expect(await pidsWith('marker-proj-1')).toEqual([]);

      await card.getByRole('button', { name: 'Keep blocked' }).click();
      expect(await card.count()).toBe(0);
      expect(await stateOf(page, 'proj')()).toBe('trust_required');
      expect(await pidsWith('marker-proj-1')).toEqual([]);

      await proj.getByRole('button', { name: 'More actions for proj' }).click();
      await page.getByRole('menuitem', { name: 'Review' }).click();
      await card.getByRole('button', { name: 'Approve and run' }).click();
      await poll(stateOf(page, 'proj')).toBe('connected');
      expect(await pidsWith('marker-proj-1')).toHaveLength(1);
      await poll(() => projects.getByRole('list', { name: 'Approved project servers' }).innerText()).toContain(join(project, '.mcp.json'));

      await proj.getByRole('button', { name: 'More actions for proj' }).click();
      await page.getByRole('menuitem', { name: 'Revoke approval' }).click();
      await poll(stateOf(page, 'proj')).toBe('trust_required');
      await poll(() => pidsWith('marker-proj-1')).toEqual([]);
      expect(await projects.getByRole('list', { name: 'Approved project servers' }).count()).toBe(0);

      // Approved again, then the project file changes what runs: the approval no longer covers it.
      await card.getByRole('button', { name: 'Approve and run' }).click();
      await poll(stateOf(page, 'proj')).toBe('connected');
      await writeFile(join(project, '.mcp.json'), JSON.stringify(projectEntry('marker-proj-2'), null, 2));
      await poll(stateOf(page, 'proj')).toBe('trust_required');
      await poll(() => card.locator('[data-field="args"] li').allInnerTexts()).toEqual([everything, 'stdio', 'marker-proj-2']);
      expect(await pidsWith('marker-proj-2')).toEqual([]);
      await poll(() => pidsWith('marker-proj-1')).toEqual([]);
      // The card stays open through another change and shows the entry as it is now.
      await writeFile(join(project, '.mcp.json'), JSON.stringify(projectEntry('marker-proj-3'), null, 2));
      await poll(() => card.locator('[data-field="args"] li').allInnerTexts()).toEqual([everything, 'stdio', 'marker-proj-3']);
      expect(await stateOf(page, 'proj')()).toBe('trust_required');

      await projects.getByRole('button', { name: `Remove project ${project}` }).click();
      await poll(() => proj.count()).toBe(0);
      expect(await projects.getByRole('list', { name: 'Project folders' }).count()).toBe(0);
    } finally {
      await app.stop();
      await rm(project, { recursive: true, force: true });
    }
  });

  it.skipIf(noKeychain !== undefined)('holds a project remote server until approved, showing its URL, headers and every variable they read (P1, V1)', async () => {
    project = await mkdtemp(join(tmpdir(), 'switchboard-project-'));
    const remote = await startRemoteEverything();
    process.env.SB_E2E_PROJECT_TOKEN = 'token-from-env';
    const file = join(project, '.vscode', 'mcp.json');
    await mkdir(join(project, '.vscode'));
    await writeFile(file, JSON.stringify({ servers: { docs: { type: 'http', url: remote.url, headers: { Authorization: 'Bearer ${SB_E2E_PROJECT_TOKEN}' }, approval: 'auto' } } }));
    const app = await startWebApp(async (home) => {
      await writeFile(join(home, 'projects.json'), JSON.stringify({ projects: [project] }));
    });
    try {
      const page = await open(app, 1000);
      const docs = row(page, 'docs');
      await poll(stateOf(page, 'docs')).toBe('trust_required');
      const card = docs.getByRole('region', { name: 'Approve docs' });
      await poll(() => card.locator('[data-field="source"]').count()).toBe(1);
      expect(await card.getByRole('heading').innerText()).toBe('Connect to this remote server?');
      expect(await card.locator('[data-field="url"]').innerText()).toBe(remote.url);
      expect(await card.locator('[data-field="headers"]').innerText()).toBe('Authorization');
      expect(await card.getByRole('list', { name: 'What it reads' }).innerText()).toBe('headers.Authorization reads the environment variable SB_E2E_PROJECT_TOKEN');
      expect(await card.innerText()).not.toContain('token-from-env');
      // The ignored approval: "auto" is said, on the page, as a note on that server (folded until opened).
      await page.getByRole('group', { name: 'Configuration notes' }).locator('summary').click();
      await poll(() => page.locator('body').innerText()).toContain(`"approval": "auto" in ${file} is ignored`);
      for (const [width, scheme] of [[1280, 'light'], [860, 'dark']] as const) {
        await page.setViewportSize({ width, height: 1000 });
        await page.emulateMedia({ colorScheme: scheme });
        await docs.screenshot({ path: `test-results/servers-trust-remote-${width}-${scheme}.png` });
      }
      await card.getByRole('button', { name: 'Approve and connect' }).click();
      await poll(stateOf(page, 'docs')).toBe('connected');
    } finally {
      await app.stop();
      remote.child.kill('SIGTERM');
      await rm(project, { recursive: true, force: true });
    }
  });

  /** A project folder with one server entry, and a web app that lists it at start (`listed`) or does not know it yet. */
  async function withProject(name: string, entry: Record<string, unknown>, listed: boolean, run: (app: RunningWebApp, folder: string) => Promise<void>): Promise<void> {
    const folder = await mkdtemp(join(tmpdir(), 'switchboard-project-'));
    await writeFile(join(folder, '.mcp.json'), JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [everything, 'stdio'], ...entry } } }));
    const app = await startWebApp(async (home) => (listed ? writeFile(join(home, 'projects.json'), JSON.stringify({ projects: [folder] })) : undefined));
    try {
      await run(app, folder);
    } finally {
      await app.stop();
      await rm(folder, { recursive: true, force: true });
    }
  }
  /** Every state the page was sent for the server was "needs approval", and there was at least one. */
  const onlyApproval = (shown: string[]) => {
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((state) => state !== 'trust_required')).toEqual([]);
  };

  it('shows a project server as needing approval from the first list on, never as waiting to start', async () => {
    await withProject('early', {}, true, async (app) => {
      const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const shown = statesSent(page, 'early');
      await page.goto(app.url);
      await poll(stateOf(page, 'early')).toBe('trust_required');
      onlyApproval(shown);
    });
  });

  it('shows the servers of a project added while it runs as needing approval from their first appearance', async () => {
    await withProject('later', {}, false, async (app, folder) => {
      const page = await open(app);
      const shown = statesSent(page, 'later');
      await page.reload();
      await page.getByRole('heading', { name: 'Servers' }).waitFor();
      await page.getByLabel('Project folder path').fill(folder);
      await page.getByRole('button', { name: 'Add project' }).click();
      await poll(stateOf(page, 'later')).toBe('trust_required');
      onlyApproval(shown);
    });
  });

  it('shows a field a project file may not set as a note, never counted among the problems', async () => {
    await withProject('noted', { approval: 'auto' }, true, async (app) => {
      const page = await open(app);
      await poll(stateOf(page, 'noted')).toBe('trust_required');
      // Folded, it says what it is in one line; opened, what was left out and where.
      const notes = page.getByRole('group', { name: 'Configuration notes' });
      await expect.poll(() => notes.locator('summary').innerText()).toBe('A note on your configuration: settings left out on purpose');
      await notes.locator('summary').click();
      await expect.poll(() => notes.innerText()).toContain('"approval": "auto"');
      expect(await page.getByRole('alert', { name: 'Configuration problems' }).count()).toBe(0);
      expect(await page.locator('main').innerText()).not.toMatch(/problems? in your configuration/);
    });
  });

  it.skipIf(noKeychain !== undefined)('shows a rich list: connected, error with its reason, retrying, disabled, remote and awaiting approval', async () => {
    project = await mkdtemp(join(tmpdir(), 'switchboard-project-'));
    await writeFile(join(project, '.mcp.json'), JSON.stringify(projectEntry('marker-rich'), null, 2));
    const remote = await startRemoteEverything();
    const config = {
      servers: {
        everything: { command: process.execPath, args: [everything, 'stdio'] },
        github: { command: 'definitely-not-installed-mcp', args: ['--stdio'] },
        flaky: { command: process.execPath, args: [toolbox, '--die-after', '1000'] },
        notes: { command: process.execPath, args: [everything, 'stdio'], enabled: false },
        remote: { url: remote.url },
      },
    };
    const app = await startWebApp(async (home) => {
      await writeFile(join(home, 'servers.json'), JSON.stringify(config, null, 2));
      await writeFile(join(home, 'projects.json'), JSON.stringify({ projects: [project] }));
    });
    try {
      const page = await open(app, 1000);
      await poll(stateOf(page, 'everything')).toBe('connected');
      await poll(stateOf(page, 'remote')).toBe('connected');
      await poll(stateOf(page, 'github')).toBe('error');
      await poll(stateOf(page, 'proj')).toBe('trust_required');
      expect(await stateOf(page, 'notes')()).toBe('disabled');
      expect(await row(page, 'github').innerText()).toContain('command not found: definitely-not-installed-mcp');
      expect(await row(page, 'remote').innerText()).not.toContain(join(app.home, 'servers.json'));
      await row(page, 'proj').getByRole('region', { name: 'Approve proj' }).locator('[data-field="source"]').waitFor();
      // It dies a second after each start, so it spends most of its time waiting for the next attempt.
      await poll(() => row(page, 'flaky').innerText()).toMatch(/Retrying in \d+ s \(at /);
      await page.screenshot({ path: 'test-results/servers-rich.png' });
      if (process.env.SWITCHBOARD_UPDATE_SCREENSHOTS === '1') await copyFile('test-results/servers-rich.png', 'assets/screenshot-servers.png');
    } finally {
      await app.stop();
      remote.child.kill('SIGTERM');
      await rm(project, { recursive: true, force: true });
    }
  });
});
