/**
 * Runs renderer modules in real Chromium without the app: bundles an entry with Vite (and the
 * Svelte plugin), serves it from a fake origin with the app's own CSP header, and reports any CSP
 * violation the page raised.
 */
import { resolve } from 'node:path';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import type { Browser, Page } from 'playwright-core';
import { build, type Rolldown } from 'vite';
import { CONTENT_SECURITY_POLICY } from '../../../../src-main/core/csp';

export const HARNESS_ORIGIN = 'http://harness.test';

export async function bundle(entry: string): Promise<{ js: string; css: string }> {
  const output = (await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [svelte({ configFile: resolve('svelte.config.js') })],
    build: {
      write: false,
      minify: false,
      cssCodeSplit: false,
      lib: { entry: resolve(entry), formats: ['iife'], name: '__harnessBundle', fileName: 'harness' },
    },
  })) as Rolldown.RolldownOutput | Rolldown.RolldownOutput[];
  const files = (Array.isArray(output) ? output : [output]).flatMap((o) => o.output);
  let js = '';
  let css = '';
  for (const file of files) {
    if (file.type === 'chunk') js += file.code;
    else if (file.fileName.endsWith('.css')) css += typeof file.source === 'string' ? file.source : new TextDecoder().decode(file.source);
  }
  return { js, css };
}

export interface HarnessPage {
  page: Page;
  /** CSP violations seen so far, as "directive: blocked URI". */
  violations: () => Promise<string[]>;
  errors: string[];
}

export async function openHarness(browser: Browser, code: { js: string; css: string }, viewport = { width: 900, height: 700 }): Promise<HarnessPage> {
  const page = await browser.newPage({ viewport });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route(`${HARNESS_ORIGIN}/**`, async (route) => {
    const path = new URL(route.request().url()).pathname;
    const headers = { 'content-security-policy': CONTENT_SECURITY_POLICY };
    if (path === '/harness.js') return route.fulfill({ status: 200, headers: { ...headers, 'content-type': 'text/javascript; charset=utf-8' }, body: code.js });
    if (path === '/harness.css') return route.fulfill({ status: 200, headers: { ...headers, 'content-type': 'text/css; charset=utf-8' }, body: code.css });
    return route.fulfill({
      status: 200,
      headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
      body: '<!doctype html><html><head><link rel="stylesheet" href="/harness.css"><script src="/harness-csp.js"></script></head><body><div id="app"></div><script src="/harness.js"></script></body></html>',
    });
  });
  // Collect violations from the first moment: a tiny same-origin script (inline script is refused by the CSP).
  await page.route(`${HARNESS_ORIGIN}/harness-csp.js`, (route) =>
    route.fulfill({
      status: 200,
      headers: { 'content-type': 'text/javascript' },
      body: "window.__csp = []; document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ': ' + e.blockedURI));",
    }),
  );
  await page.goto(`${HARNESS_ORIGIN}/`);
  return { page, errors, violations: () => page.evaluate(() => (window as unknown as { __csp: string[] }).__csp) };
}
