/**
 * Screenshots of every scene of the UI tour in light and dark, for review and for the README:
 *   npm run build && bash test/with-keychain.sh npx tsx test/e2e/support/screenshots.ts <folder> [scene…]
 * Writes <folder>/<theme>/<scene>.png. The theme is the browser's colour scheme (the app follows it).
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { launchChromium } from './chromium';
import { openTourPage, THEMES } from './tour-page';
import { scenes, startTourApp } from './ui-tour';

const [folder, ...only] = process.argv.slice(2);
if (!folder) {
  console.error('usage: tsx test/e2e/support/screenshots.ts <folder> [scene…]');
  process.exit(2);
}

const browser = await launchChromium();
const tour = await startTourApp();
try {
  for (const theme of THEMES) {
    await mkdir(join(folder, theme), { recursive: true });
    const open = await openTourPage(browser, tour, theme);
    for (const scene of scenes.filter((s) => only.length === 0 || only.includes(s.name))) {
      const page = await open();
      await scene.show(page, tour);
      const path = resolve(folder, theme, `${scene.name}.png`);
      await page.screenshot({ path, fullPage: true });
      console.log(path);
      await scene.leave?.(page);
      await page.close();
    }
  }
} finally {
  await tour.close();
  await browser.close();
}
