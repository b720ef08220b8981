import type { Browser, Page } from 'playwright-core';
import type { TourApp } from './ui-tour';

export const THEMES = ['light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/**
 * Fresh pages of the tour's app in one browser context whose colour scheme is `theme`: the first
 * carries the printed token (it becomes a cookie), the next ones reuse the cookie.
 */
export async function openTourPage(browser: Browser, tour: TourApp, theme: Theme, viewport = { width: 1180, height: 820 }): Promise<() => Promise<Page>> {
  const context = await browser.newContext({ viewport, colorScheme: theme });
  let url = tour.app.url;
  return async () => {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(url);
    url = new URL('/', tour.app.url).href;
    await page.getByRole('list', { name: 'Configured servers' }).waitFor({ timeout: 30_000 });
    return page;
  };
}
