// Where web mode's "start to usable" goes (bench/figures/start-to-usable.ts, same set-up), one line per step
// on one clock: ms after the spawn of out/main/web.js. Not part of `npm run bench`; run it by hand:
//   npx tsx bench/probes/start-breakdown.ts [N=50] [runs=3]
// The page side comes from Chromium (navigation and resource timing, paints, WebSocket frames as Playwright
// sees them); a line printed by the web process as `[t] <epoch ms> <label>` is shown on the same clock, so
// temporary timing lines in the built out/main can be read beside the page's.
import { chromium } from 'playwright-core';
import { startWebApp } from '../../test/e2e/support/web-app';
import { homeAfterEarlierStart } from '../lib/core';
import { quietPage } from '../lib/quiet-page';
import { benchServer, rawConnect } from '../lib/servers';

const n = Number(process.argv[2] ?? 50);
const runs = Number(process.argv[3] ?? 3);
const TOOLS_PER_SERVER = 40;
const probe = await rawConnect(benchServer(TOOLS_PER_SERVER - 2));
const { tools } = await probe.listTools();
await probe.close();
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
const allToolsShown = `(() => { const rows = [...document.querySelectorAll('[data-server]')]; return rows.length === ${n} && rows.every((r) => /\\b${TOOLS_PER_SERVER} tools\\b/.test(r.textContent || '')); })()`;
type PageTimes = { origin: number; nav: Record<string, number>; resources: [string, number][]; paints: [string, number][] };

for (let run = 0; run < runs; run++) {
  const page = await quietPage(browser, { width: 1280, height: 900 });
  const marks: [string, number][] = [];
  const mark = (label: string) => marks.push([label, Date.now()]);
  page.on('request', (r) => mark(`page requests ${new URL(r.url()).pathname}`));
  page.on('websocket', (ws) => {
    mark('WebSocket created');
    ws.on('framereceived', (f) => {
      const text = String(f.payload);
      if (text.includes('"id":1,')) mark(`first answer received (${text.length} B)`);
    });
  });
  let t0 = 0;
  const app = await startWebApp(async (home) => {
    await homeAfterEarlierStart(home, n, tools);
    t0 = Date.now();
  });
  mark('URL printed');
  await page.goto(app.url);
  while (!(await page.evaluate(allToolsShown)));
  mark(`every row shows ${TOOLS_PER_SERVER} tools`);
  const times = (await page.evaluate(`(() => ({
    origin: performance.timeOrigin,
    nav: performance.getEntriesByType('navigation')[0].toJSON(),
    resources: performance.getEntriesByType('resource').map((e) => [e.name.split('/').pop(), e.responseEnd]),
    paints: performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]),
  }))()`)) as PageTimes;
  for (const key of ['requestStart', 'responseEnd', 'domInteractive', 'domContentLoadedEventEnd']) marks.push([`navigation ${key}`, times.origin + times.nav[key]!]);
  for (const [name, end] of times.resources) marks.push([`received ${name}`, times.origin + end]);
  for (const [name, start] of times.paints) marks.push([name, times.origin + start]);
  for (const line of app.output().split('\n')) {
    const timed = /\[t\] (\d+) (.*)/.exec(line);
    if (timed) marks.push([`web process: ${timed[2]}`, Number(timed[1])]);
  }
  marks.sort((a, b) => a[1] - b[1]);
  console.log(`--- run ${run + 1}, N = ${n}`);
  for (const [label, t] of marks) console.log(`${String(Math.round(t - t0)).padStart(6)} ms  ${label}`);
  await page.close();
  await app.stop();
}
await browser.close();
