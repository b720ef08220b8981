/**
 * Every page and dialog of the UI, reached the way a person reaches it, on one web-mode app with
 * data that fills each of them: the accessibility check walks it in both themes, and the README's
 * and review screenshots come from it. Waits are on what the page shows, never on time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { startWebApp, type RunningWebApp } from './web-app';

const everything = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const basicApp = resolve('node_modules/@modelcontextprotocol/server-basic-svelte/dist/index.js');
const WAIT = { timeout: 30_000 };

export interface TourApp {
  app: RunningWebApp;
  llm: FakeLlmServer;
  close: () => Promise<void>;
}

/**
 * A data home that gives each view something to show: a connected server (asking before each
 * call), a disabled one, one that fails, a remote one that cannot be reached, a bad entry, an MCP App
 * server, and a project whose local server waits for approval (with a field its file may not set).
 */
export async function startTourApp(): Promise<TourApp> {
  const llm = await startFakeLlmServer();
  const app = await startWebApp(async (home) => {
    const project = join(home, 'project');
    await mkdir(project);
    // "approval" in a project file is ignored with a note (never counted as a problem).
    await writeFile(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { 'project-notes': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], approval: 'auto' } } }));
    await writeFile(join(home, 'projects.json'), JSON.stringify({ projects: [project] }));
    const servers = {
      everything: { command: process.execPath, args: [everything, 'stdio'], approval: 'ask' },
      broken: { command: process.execPath, args: ['-e', 'console.error("cannot find config.yml"); process.exit(3)'] },
      remote: { url: 'http://127.0.0.1:9/mcp' },
      notes: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], enabled: false },
      both: { command: 'x', url: 'https://example.com/mcp' },
      // An MCP App server, for the chat's app card.
      clock: { command: process.execPath, args: [basicApp, '--stdio'], approval: 'auto' },
    };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }, null, 2));
  });
  return {
    app,
    llm,
    close: async () => {
      await app.stop();
      await llm.close();
    },
  };
}

export interface Scene {
  name: string;
  /** Brings the page from the servers page, freshly loaded, to this scene. */
  show: (page: Page, tour: TourApp) => Promise<void>;
  /** Leaves nothing waiting in the core for the next scene (open approvals). */
  leave?: (page: Page) => Promise<void>;
}

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
const dialog = (page: Page) => page.getByTestId('approval-dialog');

/** A row's secondary action, from its menu (the row itself shows state, Tools and Logs). */
export async function rowAction(page: Page, server: string, action: string): Promise<void> {
  await page.locator(`[data-server="${server}"]`).getByRole('button', { name: `More actions for ${server}` }).click();
  await page.getByRole('menu', { name: `More actions for ${server}` }).getByRole('menuitem', { name: action, exact: true }).click();
}

async function connected(page: Page, name: string): Promise<void> {
  await page.locator(`[data-server="${name}"][data-state="connected"]`).waitFor(WAIT);
}

async function openTool(page: Page, tool: string): Promise<void> {
  await connected(page, 'everything');
  const tools = page.getByRole('region', { name: 'Tools of everything' });
  if (!(await tools.isVisible())) await page.locator('[data-server="everything"]').getByRole('button', { name: 'Tools', exact: true }).click();
  const row = page.locator(`[data-tool="everything__${tool}"]`);
  const runner = row.getByTestId('tool-runner');
  if (!(await runner.isVisible())) await row.getByRole('button', { name: `Run ${tool}` }).click();
  await runner.waitFor(WAIT);
}

/** Runs a tool from its panel and waits for the approval dialog it raises. */
async function runForDialog(page: Page, tool: string, kind: string, fill?: (page: Page) => Promise<void>): Promise<void> {
  await openTool(page, tool);
  const runner = page.locator(`[data-tool="everything__${tool}"]`).getByTestId('tool-runner');
  await fill?.(page);
  await runner.getByRole('button', { name: 'Run', exact: true }).click();
  // The tool call itself asks first (approval "ask"); server-side requests come after it is allowed.
  await dialog(page).waitFor(WAIT);
  if (kind !== 'tool_call') {
    await dialog(page).getByRole('button', { name: 'Allow once' }).click();
    await page.locator(`[data-testid="approval-dialog"][data-kind="${kind}"]`).waitFor(WAIT);
  }
}

/** Clicks one button of the servers page and waits for what it opens. */
async function openWith(page: Page, button: string, shown: (page: Page) => Locator): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  await shown(page).waitFor(WAIT);
}
const opens = (name: string, button: string, shown: (page: Page) => Locator): Scene => ({ name, show: (page) => openWith(page, button, shown) });
const catalog = (page: Page) => page.getByRole('list', { name: 'Catalog' });
const openCatalog = (page: Page) => openWith(page, 'Browse', catalog);

export const scenes: Scene[] = [
  {
    name: 'servers',
    show: async (page) => {
      await connected(page, 'everything');
      await connected(page, 'clock');
      await page.locator('[data-server="project-notes"][data-state="trust_required"]').getByRole('region').waitFor(WAIT);
      await page.locator('[data-server="broken"]:not([data-state="connecting"])').waitFor(WAIT);
    },
  },
  opens('servers-add', 'Add server', (page) => page.getByRole('form', { name: 'Add a server' })),
  {
    name: 'servers-paste',
    show: async (page) => {
      await page.getByRole('button', { name: 'Paste JSON' }).click();
      await page.getByLabel('Snippet').fill(JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', 'github-mcp'], env: { GITHUB_TOKEN: '${secret:github}' } } } }, null, 2));
      await page.getByRole('list', { name: 'Servers to add' }).waitFor(WAIT);
    },
  },
  opens('servers-import', 'Import from another app', (page) => page.getByText("Claude Desktop's config was not found there")),
  { name: 'servers-browse', show: openCatalog },
  {
    // The install form with the sandbox it writes (SECURITY V2, X1): a catalog server that needs a host.
    name: 'install-catalog',
    show: async (page) => {
      await page.getByRole('button', { name: 'Browse', exact: true }).click();
      await page.getByRole('list', { name: 'Catalog' }).getByRole('button', { name: /Brave Search/ }).click();
      await page.getByRole('form', { name: /Install Brave Search/ }).getByRole('region', { name: 'Sandbox' }).waitFor(WAIT);
    },
  },
  {
    // A bundle's card: what it runs, its sandbox (its own folder, the folders its settings pick, no network).
    name: 'install-bundle',
    show: async (page) => {
      const { packFixture } = await import('../../support/bundles');
      await page.getByRole('button', { name: 'Install bundle', exact: true }).click();
      await page.locator('input[type="file"]').setInputFiles(await packFixture());
      await page.getByRole('form', { name: 'Install Hello Bundle' }).getByRole('region', { name: 'Sandbox' }).waitFor(WAIT);
    },
  },
  {
    name: 'servers-install',
    show: async (page) => {
      await openCatalog(page);
      await catalog(page).getByRole('button', { name: /Everything \(reference\)/ }).click();
      await page.getByRole('form', { name: 'Install Everything (reference)' }).waitFor(WAIT);
    },
  },
  opens('servers-bundle', 'Install bundle', (page) => page.getByRole('region', { name: 'Install a bundle' })),
  {
    name: 'servers-edit',
    show: async (page) => {
      await rowAction(page, 'broken', 'Edit');
      await page.getByRole('form', { name: 'Edit broken' }).waitFor(WAIT);
    },
  },
  {
    name: 'servers-remove',
    show: async (page) => {
      await rowAction(page, 'broken', 'Remove');
      await page.locator('[data-server="broken"]').getByRole('group', { name: 'Remove broken?' }).waitFor(WAIT);
    },
  },
  {
    name: 'servers-details',
    show: async (page) => {
      await page.locator('[data-server="broken"]:not([data-state="connecting"])').waitFor(WAIT);
      await page.getByRole('button', { name: 'Details of broken' }).click();
      await page.getByRole('region', { name: 'About broken' }).locator('[data-field="command"]').waitFor(WAIT);
    },
  },
  {
    name: 'servers-menu',
    show: async (page) => {
      await page.locator('[data-server="everything"]').getByRole('button', { name: 'More actions for everything' }).click();
      await page.getByRole('menu').waitFor(WAIT);
    },
  },
  {
    name: 'servers-logs',
    show: async (page) => {
      await page.locator('[data-server="broken"]:not([data-state="connecting"])').waitFor(WAIT);
      await page.locator('[data-server="broken"]').getByRole('button', { name: 'Logs' }).click();
      await page.getByRole('region', { name: 'Logs of broken' }).waitFor(WAIT);
    },
  },
  {
    name: 'servers-tools',
    show: async (page) => {
      await openTool(page, 'echo');
      await page.locator('[data-tool="everything__echo"]').getByLabel('message *').fill('hello');
    },
  },
  {
    name: 'dialog-tool-call',
    show: (page) => runForDialog(page, 'echo', 'tool_call', (p) => p.locator('[data-tool="everything__echo"]').getByLabel('message *').fill('hello')),
    leave: (page) => finishRun(page, 'echo'),
  },
  {
    name: 'dialog-elicitation',
    show: (page) => runForDialog(page, 'trigger-elicitation-request', 'elicitation'),
    leave: (page) => finishRun(page, 'trigger-elicitation-request'),
  },
  {
    name: 'dialog-sampling',
    show: (page) => runForDialog(page, 'trigger-sampling-request', 'sampling', (p) => p.locator('[data-tool="everything__trigger-sampling-request"]').getByLabel('prompt *').fill('Say hello')),
    leave: (page) => finishRun(page, 'trigger-sampling-request'),
  },
  {
    name: 'chat',
    show: async (page) => {
      await nav(page, 'Chat');
      await page.getByTestId('conversation-title').waitFor(WAIT);
    },
  },
  {
    name: 'chat-settings',
    show: async (page) => {
      await nav(page, 'Chat');
      await page.getByRole('button', { name: 'Model settings', exact: true }).click();
      await page.getByRole('region', { name: 'Model settings' }).waitFor(WAIT);
    },
  },
  {
    name: 'chat-conversation',
    show: async (page, tour) => {
      await nav(page, 'Chat');
      await useFakeModel(page, tour.llm);
      tour.llm.script(
        { text: 'Let me echo that.', toolCalls: [{ id: `call_${Date.now()}`, name: 'everything__echo', args: { message: 'hello from Switchboard' } }] },
        { text: 'The server answered **Echo: hello from Switchboard**. Anything else?' },
      );
      await page.getByTestId('composer-input').fill('Please echo "hello from Switchboard"');
      await page.getByTestId('composer-input').press('Enter');
      await dialog(page).getByRole('button', { name: 'Allow once' }).click(WAIT);
      await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'Anything else?' }).waitFor(WAIT);
      await turnOver(page);
    },
  },
  {
    name: 'chat-app',
    show: async (page, tour) => {
      await connected(page, 'clock');
      await nav(page, 'Chat');
      await useFakeModel(page, tour.llm);
      const id = `call_${Date.now()}`;
      tour.llm.script({ text: 'Here is the clock app.', toolCalls: [{ id, name: 'clock__get-time', args: {} }] }, { text: 'That is the time where the server runs.' });
      await page.getByTestId('composer-input').fill('What time is it on the server?');
      await page.getByTestId('composer-input').press('Enter');
      await page.locator(`[data-call-id="${id}"] [data-testid="app-frame"][data-status="running"]`).waitFor({ timeout: 60_000 });
      await page.locator('[data-testid="message"][data-role="assistant"]', { hasText: 'where the server runs' }).waitFor(WAIT);
      await turnOver(page);
    },
  },
  {
    name: 'permissions',
    show: async (page) => {
      await nav(page, 'Permissions');
      await page.getByRole('heading', { name: 'Permissions', exact: true }).waitFor(WAIT);
    },
  },
  {
    name: 'settings',
    show: async (page) => {
      await nav(page, 'Settings');
      await page.getByRole('group', { name: 'Appearance' }).waitFor(WAIT);
    },
  },
  {
    name: 'secrets',
    show: async (page) => {
      await nav(page, 'Secrets');
      await page.getByRole('heading', { name: 'Secrets', exact: true }).waitFor(WAIT);
      await page.getByRole('button', { name: 'Look for plain secrets' }).click();
    },
  },
];

/** The turn has ended and is stored: Send is back in place of Stop. */
const turnOver = (page: Page) => page.getByRole('button', { name: 'Send', exact: true }).waitFor(WAIT);

/** Points the chat at the fake LLM (a loopback OpenAI-compatible server needs no key). */
export async function useFakeModel(page: Page, llm: FakeLlmServer): Promise<void> {
  await page.getByRole('button', { name: 'Model settings', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Model settings' });
  await panel.getByLabel('Provider').selectOption('openai-compatible');
  await panel.getByLabel('Base URL').fill(llm.openAiBaseUrl);
  await panel.getByLabel('Model', { exact: true }).fill('fake-model-small');
  await panel.getByRole('button', { name: 'Save settings' }).click();
  await panel.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor(WAIT);
  await panel.getByRole('button', { name: 'Close' }).click();
}

/** Declines every request the tool's run raises until its run ends, so the next scene starts clean. */
export async function finishRun(page: Page, tool: string): Promise<void> {
  const output = page.locator(`[data-tool="everything__${tool}"] [data-testid="run-output"]`);
  for (;;) {
    await page.locator(`[data-testid="approval-dialog"], [data-tool="everything__${tool}"] [data-testid="run-output"]`).first().waitFor(WAIT);
    if (await output.isVisible()) return;
    const refuse = dialog(page).getByRole('button', { name: /^(Deny|Decline)$/ });
    const handle = await refuse.elementHandle(WAIT);
    await refuse.click();
    // The answered request's content goes; the next request (or the result) takes its place.
    await handle!.waitForElementState('hidden', WAIT);
  }
}
