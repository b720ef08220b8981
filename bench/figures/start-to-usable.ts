import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { startWebApp, WEB_ENTRY } from '../../test/e2e/support/web-app';
import { homeAfterEarlierStart } from '../lib/core';
import { quietPage } from '../lib/quiet-page';
import { judge, notBuilt, type Figure } from '../lib/figure';
import { benchServer, childrenGone, rawConnect } from '../lib/servers';
import { summarize } from '../lib/stats';

const CHROMIUM = process.env.SWITCHBOARD_CHROMIUM ?? '/usr/bin/chromium';
const TOOLS_PER_SERVER = 40;

/**
 * Runs in the page through page.evaluate (a string: tsx's keepNames helper does not exist there;
 * and not waitForFunction, which evaluates with eval and the app's CSP forbids that): every server
 * row shows its cached tool count.
 */
const allToolsShown = (n: number) => `(() => {
  const rows = [...document.querySelectorAll('[data-server]')];
  return rows.length === ${n} && rows.every((row) => /\\b${TOOLS_PER_SERVER} tools\\b/.test(row.textContent || ''));
})()`;

/**
 * Web mode from process start to usable: spawn the built out/main/web.js on a data home whose N
 * servers have their tools in the cache, open its URL in Chromium (already running), and stop the
 * clock when the servers view shows every server's tools. The servers start once the page has drawn them.
 */
export async function startToUsable(counts: number[], runs: number): Promise<Figure[]> {
  const title = (n: number) => `start to usable in web mode: process start until the browser shows every cached server's tools, N = ${n}`;
  const target = (n: number): Figure['target'] => (n >= 50 ? { kind: 'absolute', max: 1000, unit: 'ms' } : { kind: 'report' });
  const missing = !existsSync(CHROMIUM) ? `no Chromium at ${CHROMIUM}` : !existsSync(WEB_ENTRY) ? 'web mode is not built (out/main/web.js)' : undefined;
  if (missing) return counts.map((n) => notBuilt({ id: `start-usable-${n}`, title: title(n), unit: 'ms', target: target(n) }, missing));

  const probe = await rawConnect(benchServer(TOOLS_PER_SERVER - 2));
  const { tools } = await probe.listTools();
  await probe.close();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  const figures: Figure[] = [];
  try {
    for (const n of counts) {
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        const page = await quietPage(browser, { width: 1280, height: 900 });
        let started = 0;
        const app = await startWebApp(async (home) => {
          await homeAfterEarlierStart(home, n, tools);
          started = performance.now(); // the process is spawned right after this returns
        });
        try {
          await page.goto(app.url);
          const deadline = performance.now() + 60_000;
          // Polled as fast as CDP answers (a round trip is ~1 ms): the clock stops at the first poll that sees all N.
          while (!(await page.evaluate(allToolsShown(n)))) {
            if (performance.now() > deadline) throw new Error(`start to usable N=${n}: the servers view did not show every server's tools within 60 s`);
          }
          times.push(performance.now() - started);
        } finally {
          await page.close();
          // web mode stops its servers' process groups before it exits (SECURITY P4); checked once Chromium is closed too.
          await app.stop();
        }
      }
      figures.push(
        judge({
          id: `start-usable-${n}`,
          title: title(n),
          unit: 'ms',
          target: target(n),
          switchboard: { stats: summarize(times), work: `spawn node out/main/web.js → URL printed → page.goto → every one of ${n} rows shows "${TOOLS_PER_SERVER} tools" (from the tool cache)` },
          note: 'Chromium was already running, its page opened on a quiet machine; the servers start once the page has drawn its list, as shipped; the raw SDK has no UI (ratio n/a)',
        }),
      );
    }
  } finally {
    await browser.close();
  }
  const left = await childrenGone();
  if (left > 0) throw new Error(`start to usable: ${left} processes still running after web mode and Chromium stopped`);
  return figures;
}
