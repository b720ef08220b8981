// Issue 23: the servers view people expect — compact rows, details beside them (in place on a narrow
// window), live logs, a tools filter, whole-line descriptions, a new server scrolled to, and the
// browser's Back staying in the app. Real web mode, real servers, real Chromium.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { pageFor } from './support/page-for';
import { startWebApp, type RunningWebApp } from './support/web-app';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const manyTools = join(process.cwd(), 'test/fixtures/servers/many-tools.mjs');
const crashOnStart = join(process.cwd(), 'test/fixtures/servers/crash-on-start.mjs');
const toolbox = join(process.cwd(), 'test/fixtures/servers/toolbox.mjs');
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const missing = chromiumMissingReason();
if (missing) console.warn(`servers layout e2e skipped: ${missing}`);

/** Writes "late: disk full" to stderr and exits once `trigger` exists: a crash the test decides the moment of. */
const LATE_CRASH = `const fs = require('node:fs'); setInterval(() => { if (fs.existsSync(process.argv[1])) { process.stderr.write('late: disk full\\n'); process.exit(4); } }, 50);`;

const WORDY_LINES = Array.from({ length: 7 }, (_, i) => `wordy: step ${i + 1} failed`);
const WORDY_CRASH = `for (const line of ${JSON.stringify(WORDY_LINES)}) process.stderr.write(line + '\\n\\n'); process.exit(2);`;

describe.skipIf(missing !== undefined)('the servers view layout (web mode, Chromium)', () => {
  let browser: Browser;
  let app: RunningWebApp;
  let trigger: string;
  let chattyLog: string;
  beforeAll(async () => {
    browser = await launchChromium();
    await mkdir('test-results', { recursive: true });
    app = await startWebApp(async (home) => {
      trigger = join(home, 'crash-now');
      chattyLog = join(home, 'chatty.log');
      const servers: Record<string, unknown> = {
        everything: { command: process.execPath, args: [everything, 'stdio'] },
        many: { command: process.execPath, args: [manyTools] },
        broken: { command: process.execPath, args: [crashOnStart] },
        late: { command: process.execPath, args: ['-e', LATE_CRASH, join(home, 'crash-now')], timeout: 120 },
        chatty: { command: process.execPath, args: [toolbox, '--stderr-when', join(home, 'chatty.log')] },
        // Seven lines with blank ones between: the row shows the lines the state carries, as `switchboard status` prints them.
        wordy: { command: process.execPath, args: ['-e', WORDY_CRASH] },
      };
      // Enough rows that the last one starts below the fold.
      for (let i = 1; i <= 14; i++) servers[`idle-${String(i).padStart(2, '0')}`] = { command: process.execPath, args: ['-e', ''], enabled: false };
      await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }, null, 2));
    });
  });
  afterAll(async () => {
    await app?.stop();
    await browser?.close();
  });

  async function open(width: number, height = 900): Promise<Page> {
    const page = await browser.newPage({ viewport: { width, height } });
    await page.goto(app.url);
    await page.getByRole('list', { name: 'Configured servers' }).waitFor();
    return page;
  }  const withPage = (test: (page: Page) => Promise<void>, ...size: Parameters<typeof open>) => pageFor(open(...size), test);

  const row = (page: Page, name: string) => page.locator(`[data-server="${name}"]`);

  // First: the late server waits for its trigger, and the Logs pane must be open before it fires.
  it('fills an open Logs pane when stderr arrives, and shows the last stderr lines under the fix that promises them', async () => {
    await withPage(async (page) => {
      expect(await row(page, 'late').getAttribute('data-state')).toBe('connecting');
      await row(page, 'late').getByRole('button', { name: 'Logs', exact: true }).click();
      const logs = page.getByRole('region', { name: 'Logs of late' });
      await poll(() => logs.innerText()).toContain('Nothing logged yet');
      // One way to close the details, in their header: the Logs section had a second Close that closed them all.
      expect(await logs.getByRole('button', { name: 'Close', exact: true }).count()).toBe(0);
      expect(await page.getByRole('region', { name: 'About late' }).getByRole('button', { name: /close/i }).count()).toBe(1);
      await writeFile(trigger, '');
      await poll(() => logs.getByTestId('server-stderr').innerText()).toContain('late: disk full');

      await poll(() => row(page, 'broken').getByTestId('diagnosis').innerText()).toContain('its last stderr lines are below');
      await poll(() => row(page, 'broken').getByTestId('stderr-tail').innerText()).toContain('fatal: API_KEY is not set');
      await poll(() => row(page, 'wordy').getByTestId('stderr-tail').innerText()).toBe(WORDY_LINES.join('\n'));
      await page.screenshot({ path: 'test-results/servers-layout-live-logs.png' });
    }, 1280);
  });

  it('follows a running server’s stderr in its open Logs pane as lines land, told by the core, without polling', async () => {
    await withPage(async (page) => {
      const told: string[] = [];
      let reads = 0;
      page.on('websocket', (ws) => {
        ws.on('framesent', ({ payload }) => {
          if (/"serverLogs"/.test(String(payload)) && /"chatty"/.test(String(payload))) reads += 1;
        });
        ws.on('framereceived', ({ payload }) => {
          const text = String(payload);
          if (text.includes('"serverLogsChanged"')) told.push(text);
        });
      });
      await page.reload();
      await poll(() => row(page, 'chatty').getAttribute('data-state')).toBe('connected');
      await row(page, 'chatty').getByRole('button', { name: 'Logs', exact: true }).click();
      const logs = page.getByRole('region', { name: 'Logs of chatty' });
      await poll(() => logs.innerText()).toContain('Nothing logged yet');
      await writeFile(chattyLog, 'chatty: cache warmed\n');
      await poll(() => logs.getByTestId('server-stderr').innerText()).toContain('chatty: cache warmed');
      await writeFile(chattyLog, 'chatty: cache warmed\nchatty: disk almost full\n');
      await poll(() => logs.getByTestId('server-stderr').innerText()).toContain('chatty: disk almost full');
      // Still connected: the state never changed, so only the core's log notice can have brought the lines.
      expect(await row(page, 'chatty').getAttribute('data-state')).toBe('connected');
      expect(told.filter((t) => t.includes('"chatty"')).length).toBeGreaterThanOrEqual(2);
      // One read on opening, then one per notice at most: nothing reads on a timer. The one fixed wait here is
      // the window a timer would have to show itself in (a 1 s poll reads twice); no load makes a notice-driven pane read.
      const settled = reads;
      expect(settled).toBeLessThanOrEqual(1 + told.length);
      await page.waitForTimeout(2500);
      expect(reads).toBe(settled);
    }, 1280);
  });

  it('keeps each row to one line of state with its secondary actions in a menu, and names the config file once', async () => {
    await withPage(async (page) => {
      await poll(() => row(page, 'everything').getAttribute('data-state')).toBe('connected');
      const everythingRow = row(page, 'everything');
      expect((await everythingRow.boundingBox())!.height).toBeLessThan(56);
      expect(await everythingRow.innerText()).not.toContain(join(app.home, 'servers.json'));
      for (const action of ['Reconnect', 'Edit', 'Remove']) expect(await everythingRow.getByRole('button', { name: action, exact: true }).count()).toBe(0);
      await everythingRow.getByRole('button', { name: 'More actions for everything' }).click();
      const menu = page.getByRole('menu', { name: 'More actions for everything' });
      expect(await menu.getByRole('menuitem').allInnerTexts()).toEqual(['Details', 'Reconnect', 'Edit', 'Remove']);
      await page.keyboard.press('Escape');
      await poll(() => menu.count()).toBe(0);
      // The one place the file is named, besides its details.
      expect(await page.getByText(join(app.home, 'servers.json')).count()).toBe(1);
      await page.screenshot({ path: 'test-results/servers-layout-rows.png' });
    }, 1280);
  });

  it('opens Tools beside the list on a wide window, with a filter and descriptions folded at whole lines', async () => {
    await withPage(async (page) => {
      await poll(() => row(page, 'many').getAttribute('data-state')).toBe('connected');
      await row(page, 'many').getByRole('button', { name: 'Tools', exact: true }).click();
      const tools = page.getByRole('region', { name: 'Tools of many' });
      await poll(() => tools.locator('[data-tool]').count()).toBe(24);
      const list = (await page.getByRole('list', { name: 'Configured servers' }).boundingBox())!;
      const pane = (await page.getByRole('region', { name: 'About many' }).boundingBox())!;
      expect(pane.x).toBeGreaterThan(list.x + list.width);
      // Beside the row that opened it, in view: not under the whole list.
      expect(pane.y).toBeGreaterThanOrEqual(0);
      expect(pane.y).toBeLessThan(300);
      expect((await tools.boundingBox())!.x).toBeGreaterThan(list.x + list.width);

      await tools.getByRole('searchbox', { name: 'Filter the tools of many' }).fill('records-1');
      await poll(() => tools.locator('[data-tool]').count()).toBe(10); // records-10 … records-19
      expect(await tools.getByRole('status').innerText()).toBe('10 of 24 tools match');
      await tools.getByRole('searchbox', { name: 'Filter the tools of many' }).fill('score');
      await poll(() => tools.locator('[data-tool]').count()).toBe(1);
      await tools.getByRole('searchbox', { name: 'Filter the tools of many' }).fill('');

      // A folded description shows whole lines only, never half a line.
      const folded = tools.locator('[data-tool="many__records-01"] .description');
      const lines = await folded.evaluate((el) => el.clientHeight / parseFloat(getComputedStyle(el).lineHeight));
      expect(Math.abs(lines - Math.round(lines))).toBeLessThan(0.05);
      expect(Math.round(lines)).toBe(2);
      await tools.locator('[data-tool="many__records-01"]').getByRole('button', { name: 'More' }).click();
      expect(await folded.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
      await page.screenshot({ path: 'test-results/servers-layout-tools-beside.png' });
    }, 1280);
  });

  it('keeps each tool’s “always loaded” and Run… together at the end of its line, however long its name', async () => {
    await withPage(async (page) => {
      await poll(() => row(page, 'everything').getAttribute('data-state')).toBe('connected');
      await row(page, 'everything').getByRole('button', { name: 'Tools', exact: true }).click();
      const tools = page.getByRole('region', { name: 'Tools of everything' });
      await poll(() => tools.locator('[data-tool]').count()).toBeGreaterThan(10);
      // Long titles and names (get-resource-reference, get-annotated-message) wrap in the pane beside the list:
      // the trial saw Run… fall alone to the next line's start, apart from its checkbox, at a different place per tool.
      const places = await tools.locator('[data-tool]').evaluateAll((items) =>
        items.map((item) => {
          const head = item.querySelector('.head')!.getBoundingClientRect();
          const pin = item.querySelector('.inline-check')!.getBoundingClientRect();
          const run = item.querySelector('button.run')!.getBoundingClientRect();
          return { tool: item.getAttribute('data-tool'), sameLine: Math.abs(pin.top + pin.height / 2 - (run.top + run.height / 2)) < 4, endGap: head.right - run.right };
        }),
      );
      for (const place of places) expect(place, place.tool!).toMatchObject({ sameLine: true });
      for (const place of places) expect(place.endGap, place.tool!).toBeLessThan(2);
      await page.screenshot({ path: 'test-results/servers-layout-tool-controls.png' });
    }, 1280);
  });

  it('gives a multi-line string default a text area in the tool form', async () => {
    await withPage(async (page) => {
      await poll(() => row(page, 'many').getAttribute('data-state')).toBe('connected');
      await row(page, 'many').getByRole('button', { name: 'Tools', exact: true }).click();
      const tool = page.locator('[data-tool="many__play-score"]');
      await tool.getByRole('button', { name: 'Run play-score' }).click();
      const field = tool.getByRole('textbox', { name: 'score' });
      await field.waitFor();
      expect(await field.evaluate((el) => el.tagName)).toBe('TEXTAREA');
      expect(await field.inputValue()).toBe('X:1\nT:Speed the Plough\nM:4/4\nK:G\nGABc dedB|');
    }, 1280);
  });

  it('shows the details in place under the row on a narrow window, with the reason and fix across the row', async () => {
    await withPage(async (page) => {
      await poll(() => row(page, 'many').getAttribute('data-state')).toBe('connected');
      await row(page, 'many').getByRole('button', { name: 'Tools', exact: true }).click();
      await row(page, 'many').getByRole('region', { name: 'Tools of many' }).waitFor();
      await poll(() => row(page, 'broken').getAttribute('data-state')).not.toBe('connecting');
      const why = row(page, 'broken').locator('.why');
      expect((await why.boundingBox())!.width).toBeGreaterThan(480);
      await page.setViewportSize({ width: 900, height: 900 });
      expect((await why.boundingBox())!.width).toBeGreaterThan(500);
      await page.screenshot({ path: 'test-results/servers-layout-narrow.png', fullPage: true });
    }, 860);
  });

  it('scrolls to a server just added and marks it', async () => {
    await withPage(async (page) => {
      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('form', { name: 'Add a server' });
      await form.getByLabel('Name', { exact: true }).fill('zz-new');
      await form.getByLabel('Command', { exact: true }).fill(process.execPath);
      await form.getByRole('checkbox', { name: 'Enabled' }).uncheck();
      await form.getByRole('button', { name: 'Add server' }).click();
      const added = row(page, 'zz-new');
      await added.waitFor();
      await poll(() => added.evaluate((el) => el.classList.contains('fresh'))).toBe(true);
      await poll(() =>
        added.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      ).toBe(true);
    }, 1280, 720);
  });

  it("keeps the browser's Back inside the app: it returns to the previous page", async () => {
    await withPage(async (page) => {
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Secrets', exact: true }).click();
      await page.getByRole('heading', { name: 'Secrets', exact: true }).waitFor();
      await nav.getByRole('button', { name: 'Settings', exact: true }).click();
      await page.getByRole('group', { name: 'Appearance' }).waitFor();
      await page.goBack();
      await page.getByRole('heading', { name: 'Secrets', exact: true }).waitFor();
      expect(new URL(page.url()).hash).toBe('#secrets');
      await page.goBack();
      await page.getByRole('list', { name: 'Configured servers' }).waitFor();
      expect(new URL(page.url()).origin).toBe(new URL(app.url).origin);
    }, 1280);
  });

  it('lists servers in name order and keeps a server in its place after its entry changes', async () => {
    await withPage(async (page) => {
      const names = () => page.locator('[data-server]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-server')));
      await poll(() => row(page, 'everything').getAttribute('data-state')).toBe('connected');
      const before = await names();
      // In name order, not in the order the core happened to start them (servers.json lists "everything" first):
      // the order a restarted server cannot leave.
      expect(before).toEqual([...before].sort((a, b) => a!.localeCompare(b!, undefined, { numeric: true, sensitivity: 'base' })));
      expect(before[0]).toBe('broken');
      type Written = { servers: Record<string, Record<string, unknown>> };
      expect(before.indexOf('everything')).toBeLessThan(before.length - 1);
      // An edit restarts the server (a secret moving to the keychain does the same).
      await page.locator('[data-server="everything"]').getByRole('button', { name: 'More actions for everything' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      const form = page.getByRole('form', { name: 'Edit everything' });
      await form.getByLabel('Tool timeout').fill('90');
      await form.getByRole('button', { name: 'Save changes' }).click();
      await poll(async () => (JSON.parse(await readFile(join(app.home, 'servers.json'), 'utf8')) as Written).servers.everything?.toolTimeout).toBe(90);
      await poll(() => row(page, 'everything').getAttribute('data-state')).toBe('connected');
      expect(await names()).toEqual(before);
    }, 1280);
  });
});
