import type { Page } from 'playwright-core';

/** Runs one test on a page and closes the page after it, whatever happens. */
export async function pageFor(opening: Promise<Page>, test: (page: Page) => Promise<void>): Promise<void> {
  const page = await opening;
  try {
    await test(page);
  } finally {
    await page.close();
  }
}
