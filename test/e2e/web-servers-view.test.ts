import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const missing = chromiumMissingReason();
if (missing) console.warn(`web servers view e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('servers view in web mode (Chromium)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function open(app: RunningWebApp): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
    const pageErrors: string[] = [];
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(app.url);
    // The token leaves the address bar: it moved into an HttpOnly cookie.
    expect(page.url()).not.toContain('token=');
    expect(pageErrors).toEqual([]);
    return page;
  }

  it('lists the configured servers with their state and source, and skips a bad entry with its error', async () => {
    const config = JSON.stringify(
      {
        servers: {
          everything: { command: process.execPath, args: [everything, 'stdio'] },
          notes: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], enabled: false },
          both: { command: 'x', url: 'https://example.com/mcp' },
        },
      },
      null,
      2,
    );
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), config));
    try {
      const page = await open(app);
      const rows = page.getByRole('list', { name: 'Configured servers' }).getByRole('listitem');
      await expect.poll(() => rows.count()).toBe(2);
      const everythingRow = page.locator('[data-server="everything"]');
      await expect.poll(() => everythingRow.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
      // Its file is named in its details, not on every row (issue 23 item 5).
      expect(await everythingRow.innerText()).not.toContain(join(app.home, 'servers.json'));
      await page.getByRole('button', { name: 'Details of everything' }).click();
      await expect.poll(() => page.getByRole('region', { name: 'About everything' }).locator('[data-field="config-file"]').innerText()).toBe(join(app.home, 'servers.json'));
      expect(await page.locator('[data-server="notes"]').getAttribute('data-state')).toBe('disabled');
      expect(await page.getByTestId('aggregate-status').innerText()).toBe('MCP 1/1');

      const problems = page.getByRole('alert', { name: 'Configuration problems' });
      const text = await problems.innerText();
      const lines = config.split('\n');
      const line = lines.findIndex((l) => l.includes('"both"'));
      expect(text).toContain(`${join(app.home, 'servers.json')}, line ${line + 1}, column ${lines[line]!.indexOf('"both"') + 1}`);
      expect(text).toContain('server "both": has both "command" and "url"; a server is either local (command) or remote (url)');
      await mkdir('test-results', { recursive: true });
      await page.screenshot({ path: 'test-results/servers-view.png' });
    } finally {
      await app.stop();
    }
  });

  it('asks for the servers, approvals and projects once at start: the socket opening the first time is no reconnect', async () => {
    const config = { servers: { one: { command: process.execPath, args: ['-e', ''], enabled: false }, two: { command: process.execPath, args: ['-e', ''], enabled: false } } };
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify(config)));
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 720 } });
      const asked: string[] = [];
      page.on('websocket', (ws) => ws.on('framesent', ({ payload }) => asked.push((JSON.parse(String(payload)) as { method: string }).method)));
      await page.goto(app.url);
      await expect.poll(() => page.locator('[data-server]').count()).toBe(2);
      // Whatever else would follow the first answers has had time to go out.
      await page.waitForTimeout(500);
      expect(asked.filter((method) => method === 'listServers')).toHaveLength(1);
      expect(asked.filter((method) => method === 'listTrust')).toHaveLength(1);
      expect(asked.filter((method) => method === 'listProjects')).toHaveLength(1);
      expect(asked.filter((method) => method === 'getAppearance')).toHaveLength(1);
    } finally {
      await app.stop();
    }
  });

  it('counts an entry gone bad as one problem, saying with it that its last good settings stay in use', async () => {
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { kept: { command: 'node', enabled: false } } })));
    try {
      const page = await open(app);
      await page.locator('[data-server="kept"]').waitFor();
      await writeFile(join(app.home, 'servers.json'), JSON.stringify({ servers: { kept: { command: 'node', enabled: false, timeout: 'soon' } } }));
      const problems = page.getByRole('alert', { name: 'Configuration problems' });
      await expect.poll(() => problems.innerText()).toContain('"timeout" must be a number of seconds; its last good settings stay in use until it is fixed');
      // The trial saw "2 problems": the fault, and its consequence listed as a second one.
      expect(await problems.getByRole('heading').innerText()).toBe('A problem in your configuration');
      expect(await problems.locator('li').count()).toBe(1);
    } finally {
      await app.stop();
    }
  });

  it('shows a malformed config file with its line and column and never rewrites it', async () => {
    // A missing comma after "a": the parser can point at the exact spot.
    const broken = '{\n  "servers": {\n    "a": { "command": "node" }\n    "b": { "command": "node" }\n  }\n}\n';
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), broken));
    try {
      const page = await open(app);
      const problems = page.getByRole('alert', { name: 'Configuration problems' });
      await expect.poll(() => problems.innerText()).toContain(`${join(app.home, 'servers.json')}, line 4, column 5`);
      expect(await problems.innerText()).toContain('invalid JSON');
      expect(await page.getByText('No servers configured yet.').isVisible()).toBe(true);
      await page.screenshot({ path: 'test-results/servers-view-broken-config.png' });
      expect(await readFile(join(app.home, 'servers.json'), 'utf8')).toBe(broken);
    } finally {
      await app.stop();
    }
  });
});
