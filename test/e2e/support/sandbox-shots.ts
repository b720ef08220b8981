/**
 * Screenshots of the sandbox notice on the servers page (SECURITY X1), light and dark, 1280 and 860 wide:
 *   npm run build && npx tsx test/e2e/support/sandbox-shots.ts <folder>
 * Three local servers: one the sandbox stopped (with Allow), one sandboxed with grants, one typed and not sandboxed.
 */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { launchChromium } from './chromium';
import { startWebApp } from './web-app';

const folder = process.argv[2];
if (!folder) throw new Error('usage: tsx test/e2e/support/sandbox-shots.ts <folder>');
const hostile = resolve('test/fixtures/servers/hostile-sandbox.mjs');
const toolbox = resolve('test/fixtures/servers/toolbox.mjs');

const app = await startWebApp(async (home) => {
  // The person's HOME, apart from the data home the web app uses.
  const person = await mkdtemp(join(tmpdir(), 'sandbox-shots-home-'));
  await mkdir(join(person, 'projects'), { recursive: true });
  await writeFile(join(person, '.netrc'), 'machine example.com password x');
  const servers = {
    reader: { command: 'node', args: [hostile, '--read-on-start', '~/.netrc'], env: { HOME: person }, sandboxEnabled: true },
    notes: {
      command: 'node',
      args: [toolbox, join(person, 'projects')],
      env: { HOME: person },
      sandboxEnabled: true,
      sandbox: { network: { allowedDomains: ['api.github.com'] } },
    },
    typed: { command: 'node', args: [toolbox] },
  };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }, null, 2));
});
const browser = await launchChromium();
try {
  for (const scheme of ['light', 'dark'] as const) {
    for (const width of [1280, 860]) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      await page.goto(app.url);
      await page.getByTestId('sandbox-notice').first().waitFor();
      await page.locator('[data-server="reader"][data-state="error"]').waitFor();
      await page.locator('[data-server="notes"][data-state="connected"]').waitFor();
      const path = resolve(folder, `sandbox-${scheme}-${width}.png`);
      await mkdir(folder, { recursive: true });
      await page.screenshot({ path, fullPage: true });
      console.log(path);
      await page.close();
    }
  }
} finally {
  await browser.close();
  await app.stop();
}
