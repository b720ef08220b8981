import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: browsers can't be downloaded here, so Playwright drives the system one. */
export const CHROMIUM_PATH = process.env.SWITCHBOARD_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumMissingReason(): string | undefined {
  return existsSync(CHROMIUM_PATH) ? undefined : `no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Without the background-networking flags Chromium keeps dialling hosts this machine can't reach.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}
