/**
 * "Run…" in the tools panel end to end: the built web mode on a temp home, real server-everything
 * over stdio, Chromium. One server runs without asking; the other asks through the approval dialog.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp, type RunningWebApp } from './support/web-app';

const everything = join(process.cwd(), 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const toolbox = join(process.cwd(), 'test/fixtures/servers/toolbox.mjs');
const missing = chromiumMissingReason();
if (missing) console.warn(`tool run e2e skipped: ${missing}`);

const MARKUP = '<img src=x onerror="window.__pwned=1"><b>bold?</b>';

describe.skipIf(missing !== undefined)('running a tool from the tools panel in web mode (Chromium)', { timeout: 90_000 }, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function openTools(approval: 'auto' | 'ask'): Promise<{ app: RunningWebApp; page: Page; echo: Locator; problems: string[] }> {
    const app = await startWebApp(async (home) =>
      writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { everything: { command: process.execPath, args: [everything, 'stdio'], approval } } })),
    );
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    await page.goto(app.url);
    const row = page.locator('[data-server="everything"]');
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
    await row.getByRole('button', { name: 'Tools', exact: true }).click();
    const echo = page.locator('[data-tool="everything__echo"]');
    await echo.getByRole('button', { name: 'Run echo' }).click();
    return { app, page, echo, problems };
  }

  async function screenshot(target: Page | Locator, name: string): Promise<void> {
    await mkdir('test-results', { recursive: true });
    await target.screenshot({ path: `test-results/${name}.png` });
  }

  it('warns about a poisoned description in the tools list, as the approval dialog does', async () => {
    const poisoned = join(process.cwd(), 'test/fixtures/servers/poisoned-tools.mjs');
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { poisoned: { command: process.execPath, args: [poisoned] } } })));
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    try {
      await page.goto(app.url);
      const row = page.locator('[data-server="poisoned"]');
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      await row.getByRole('button', { name: 'Tools', exact: true }).click();
      const flags = page.locator('[data-tool="poisoned__add"] [data-testid="poisoning-flags"]');
      await flags.waitFor();
      const text = await flags.innerText();
      expect(text).toContain('1 zero-width character hidden in description');
      expect(text).toContain('Instruction-like text in description (matches <IMPORTANT> block)');
      expect(text).toContain('mentions secret files');
      await screenshot(page.locator('[data-tool="poisoned__add"]'), 'tools-panel-poisoned');
    } finally {
      await page.close();
      await app.stop();
    }
  });

  it('runs echo from a form built from its schema and shows the text as text', async () => {
    const { app, page, echo, problems } = await openTools('auto');
    try {
      const runner = echo.getByTestId('tool-runner');
      // The form checks what it can before anything is sent.
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      expect(await runner.locator('[data-field="message"]').innerText()).toContain('message is required');
      await runner.getByLabel('message *').fill(`hello ${MARKUP}`);
      await screenshot(page.getByRole('region', { name: 'Tools of everything' }), 'tool-run-form');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      const output = runner.getByTestId('run-output');
      await expect.poll(() => output.innerText(), { timeout: 20_000 }).toContain(`Echo: hello ${MARKUP}`);
      expect(await output.getAttribute('data-outcome')).toBe('ok');
      // Server text is data: no element was made from it, no handler ran.
      expect(await output.locator('img, b').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
      await screenshot(page.getByRole('region', { name: 'Tools of everything' }), 'tool-run-result');

      // The JSON view carries the form's arguments across and names a parse error.
      await runner.getByRole('button', { name: 'JSON' }).click();
      const json = runner.getByLabel('Arguments (a JSON object)');
      expect(JSON.parse(await json.inputValue())).toEqual({ message: `hello ${MARKUP}` });
      await json.fill('{ "message": "unfinished');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      expect(await runner.getByTestId('run-args-error').innerText()).toMatch(/^the arguments are not valid JSON: /);
      await json.fill('{ "message": "from JSON" }');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      await expect.poll(() => output.innerText(), { timeout: 20_000 }).toContain('Echo: from JSON');
      expect(problems).toEqual([]);
    } finally {
      await app.stop();
    }
  });

  it('calls a run the server took and failed "Failed" and a tool\'s own error result "The tool reported an error", never "Not run"', async () => {
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { box: { command: process.execPath, args: [toolbox], approval: 'auto' } } })));
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    try {
      await page.goto(app.url);
      const row = page.locator('[data-server="box"]');
      await expect.poll(() => row.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
      await row.getByRole('button', { name: 'Tools', exact: true }).click();
      const runOf = async (tool: string) => {
        const card = page.locator(`[data-tool="box__${tool}"]`);
        await card.getByRole('button', { name: `Run ${tool}` }).click();
        const runner = card.getByTestId('tool-runner');
        await runner.getByRole('button', { name: 'Run', exact: true }).click();
        const output = runner.getByTestId('run-output');
        await output.waitFor({ timeout: 20_000 });
        return output;
      };
      const reported = await runOf('fail');
      expect(await reported.getAttribute('data-outcome')).toBe('tool-error');
      expect(await reported.locator('.head').innerText()).toMatch(/^The tool reported an error · /);
      // The server took the call and died in the middle of it: it ran, and failed.
      const died = await runOf('die');
      await expect.poll(() => died.getAttribute('data-outcome'), { timeout: 20_000 }).toBe('failed');
      expect(await died.locator('.head').innerText()).toMatch(/^Failed · /);
    } finally {
      await page.close();
      await app.stop();
    }
  });

  it('asks through the approval dialog on an "ask" server: allowing shows the result, denying shows why', async () => {
    const { app, page, echo, problems } = await openTools('ask');
    try {
      const runner = echo.getByTestId('tool-runner');
      const dialog = page.getByTestId('approval-dialog');
      await runner.getByLabel('message *').fill('approved by hand');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await dialog.getByTestId('approval-server').innerText()).toBe('everything');
      expect(JSON.parse(await dialog.getByTestId('approval-args').inputValue())).toEqual({ message: 'approved by hand' });
      // The run waits for the person, with its time running; Chat's badge leaves out a run the Tools panel asked for (issue 23).
      expect(await runner.getByRole('button', { name: 'Run', exact: true }).isDisabled()).toBe(true);
      expect(await runner.getByTestId('run-status').innerText()).toMatch(/^Running… \d/);
      expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('status', { name: /waiting for your approval/ }).count()).toBe(0);
      await screenshot(page, 'tool-run-approval');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      const output = runner.getByTestId('run-output');
      await expect.poll(() => output.innerText(), { timeout: 20_000 }).toContain('Echo: approved by hand');
      expect(await dialog.count()).toBe(0);

      await runner.getByLabel('message *').fill('not this one');
      await runner.getByRole('button', { name: 'Run', exact: true }).click();
      await expect.poll(() => dialog.isVisible(), { timeout: 20_000 }).toBe(true);
      await dialog.getByLabel('Reason if you deny').fill('just checking');
      await dialog.getByRole('button', { name: 'Deny' }).click();
      await expect.poll(() => output.getAttribute('data-outcome'), { timeout: 20_000 }).toBe('failed');
      expect(await runner.getByTestId('run-error').innerText()).toBe('you denied running tool "echo" on server "everything": just checking');
      // Denied: it never reached the server, so it was not run (issue 23 item 9).
      expect(await output.locator('.head').innerText()).toMatch(/^Not run · /);
      expect(problems).toEqual([]);
    } finally {
      await app.stop();
    }
  });
});
