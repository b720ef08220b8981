/**
 * Screenshots of every scene of the UI tour in light and dark, for review and for the README:
 *   npm run build && bash test/with-keychain.sh npx tsx test/e2e/support/screenshots.ts <folder> [--size WxH] [scene…]
 * Writes <folder>/<theme>/<scene>.png: the whole page, or with --size just that window (the README's
 * are --size 1280x860 of servers-tools and chat-conversation). The theme is the browser's colour scheme (the app follows it).
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { launchChromium } from './chromium';
import { openTourPage, THEMES } from './tour-page';
import { scenes, startTourApp } from './ui-tour';

const [folder, ...rest] = process.argv.slice(2);
const sizeAt = rest.indexOf('--size');
const size = sizeAt === -1 ? undefined : /^(\d+)x(\d+)$/.exec(rest[sizeAt + 1] ?? '');
const only = sizeAt === -1 ? rest : rest.filter((_, i) => i !== sizeAt && i !== sizeAt + 1);
if (!folder || (sizeAt !== -1 && !size)) {
  console.error('usage: tsx test/e2e/support/screenshots.ts <folder> [--size WxH] [scene…]');
  process.exit(2);
}
const viewport = size ? { width: Number(size[1]), height: Number(size[2]) } : undefined;

const browser = await launchChromium();
const tour = await startTourApp();
try {
  for (const theme of THEMES) {
    await mkdir(join(folder, theme), { recursive: true });
    const open = await openTourPage(browser, tour, theme, viewport);
    for (const scene of scenes.filter((s) => only.length === 0 || only.includes(s.name))) {
      const page = await open();
      await scene.show(page, tour);
      const path = resolve(folder, theme, `${scene.name}.png`);
      await page.screenshot({ path, fullPage: !viewport });
      console.log(path);
      await scene.leave?.(page);
      await page.close();
    }
  }
} finally {
  await tour.close();
  await browser.close();
}
