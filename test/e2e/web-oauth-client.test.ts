import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keychainServiceFor, KeytarVault } from '../../src-main/core/secrets/keytar-vault';
import { MCP_SCOPE, startAuthorizationServer } from '../fixtures/oauth/authorization-server';
import { startProtectedMcpServer } from '../fixtures/oauth/protected-mcp-server';
import { chromiumMissingReason, launchChromium } from './support/chromium';
import { startWebApp } from './support/web-app';

const missing =
  chromiumMissingReason() ?? (process.env.SWITCHBOARD_TEST_KEYCHAIN === '1' ? undefined : 'SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh');
if (missing) console.warn(`OAuth client form e2e skipped: ${missing}`);

describe.skipIf(missing !== undefined)('entering a pre-registered OAuth client (Chromium, real keychain)', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('keeps the client secret in the keychain only, and removing the client says so exactly', async () => {
    const secret = `client_secret_canary_${randomBytes(8).toString('hex')}`;
    // A server that asks for sign-in: the OAuth client form is offered only where OAuth applies (issue 23 item 6).
    const as = await startAuthorizationServer();
    const docs = await startProtectedMcpServer({ name: 'docs', issuer: as.issuer, jwksUri: as.jwksUri, scope: MCP_SCOPE });
    const servers = { servers: { docs: { url: docs.url, transport: 'streamable-http' } } };
    const app = await startWebApp(async (home) => writeFile(join(home, 'servers.json'), JSON.stringify(servers)));
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
      const received: string[] = [];
      page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => received.push(String(payload))));
      await page.goto(app.url);
      await expect.poll(() => page.locator('[data-server="docs"]').getAttribute('data-state'), { timeout: 20_000 }).toBe('needs_auth');
      await page.getByRole('button', { name: 'Details of docs' }).click();
      const actions = page.locator('[data-auth-server="docs"]');
      await actions.getByRole('button', { name: 'OAuth client…' }).click();
      const form = page.getByRole('form', { name: 'OAuth client for docs' });
      await form.getByLabel('Client ID').fill('switchboard-desktop');
      await form.getByLabel('Client secret').fill(secret);
      await form.getByRole('button', { name: 'Save client' }).click();
      await expect
        .poll(() => form.getByRole('status').innerText())
        .toBe('Client ID saved for docs; the secret is in the keychain. It is used at the next sign-in.');
      expect(await form.getByLabel('Client secret').inputValue()).toBe('');
      await page.screenshot({ path: 'test-results/oauth-client-form.png' });

      const vault = new KeytarVault(keychainServiceFor({ SWITCHBOARD_HOME: app.home }));
      expect(JSON.parse((await vault.get('oauth/pre-registered/docs'))!)).toMatchObject({ clientId: 'switchboard-desktop', clientSecret: secret });
      expect(received.join('\n')).not.toContain(secret);
      expect(await page.content()).not.toContain(secret);
      expect(app.output()).not.toContain(secret);

      await form.getByRole('button', { name: 'Remove entered client' }).click();
      await expect.poll(() => form.getByRole('status').innerText()).toBe('The entered client of docs was removed.');
      expect(await vault.get('oauth/pre-registered/docs')).toBeUndefined();
      await form.getByRole('button', { name: 'Remove entered client' }).click();
      await expect.poll(() => form.getByRole('alert').innerText()).toBe('docs has no client ID entered');
    } finally {
      await app.stop();
      await docs.close();
      await as.close();
    }
  });
});
