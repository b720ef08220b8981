import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_CSP, APP_ENTRY_URL, appProtocolHandler, registerAppScheme } from '../../../src-main/electron/app-protocol';

let base: string;
let renderer: string;
let serve: (request: Request) => Promise<Response>;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'switchboard-protocol-'));
  renderer = join(base, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>Switchboard</title>');
  writeFileSync(join(renderer, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(join(base, 'secret.txt'), 'outside the renderer');
  serve = appProtocolHandler(renderer);
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const get = (url: string) => serve(new Request(url));

describe('the app:// protocol (SECURITY R2)', () => {
  it('registers app as a standard, secure scheme, and the apps sandbox scheme in the same single call', () => {
    const calls: unknown[][] = [];
    registerAppScheme({ registerSchemesAsPrivileged: (schemes) => calls.push(schemes) });
    expect(calls).toEqual([
      [
        { scheme: 'app', privileges: { standard: true, secure: true, corsEnabled: true } },
        // A real origin for the sandbox and nothing else: no fetch API, no CORS, no CSP bypass (SECURITY U1).
        { scheme: 'switchboard-sandbox', privileges: { standard: true, secure: true } },
      ],
    ]);
  });

  it('serves the entry page with the CSP, and the CSP allows no inline code and no eval', async () => {
    const response = await get(APP_ENTRY_URL);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe('<!doctype html><title>Switchboard</title>');
    expect(APP_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    // The one frame the UI may hold is the apps sandbox on its own scheme (SECURITY U1).
    expect(APP_CSP).toContain('frame-src switchboard-sandbox:;');
    expect(APP_CSP.match(/frame-src [^;]*/g)).toEqual(['frame-src switchboard-sandbox:']);
  });

  it('serves / as the entry page and a script as JavaScript, both with the CSP', async () => {
    expect(await (await get('app://switchboard/')).text()).toContain('<title>Switchboard</title>');
    const script = await get('app://switchboard/assets/index-abc.js');
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(await script.text()).toBe('console.log(1)');
  });

  it('refuses encoded path traversal out of the renderer with 403 and never returns the file', async () => {
    for (const url of ['app://switchboard/..%2fsecret.txt', 'app://switchboard/assets/..%2f..%2fsecret.txt', 'app://switchboard/%2e%2e%2fsecret.txt']) {
      const response = await get(url);
      expect(response.status, url).toBe(403);
      const body = await response.text();
      expect(body).toBe('the path leads outside the app');
      expect(body).not.toContain('outside the renderer');
    }
  });

  it('keeps plain dot segments inside the renderer (the URL parser resolves them first)', async () => {
    const response = await get('app://switchboard/assets/../../secret.txt');
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('not found: /secret.txt');
  });

  it('refuses a NUL byte, broken percent-encoding, another host and a POST', async () => {
    const nul = await get('app://switchboard/index.html%00.js');
    expect([nul.status, await nul.text()]).toEqual([400, 'the path contains a NUL character']);
    const broken = await get('app://switchboard/%E0%A4%A');
    expect([broken.status, await broken.text()]).toEqual([400, 'the path is not valid percent-encoding']);
    const host = await get('app://elsewhere/index.html');
    expect([host.status, await host.text()]).toEqual([404, 'unknown host elsewhere']);
    const post = await serve(new Request(APP_ENTRY_URL, { method: 'POST', body: 'x' }));
    expect([post.status, await post.text()]).toEqual([405, 'method POST is not allowed']);
  });

  it('answers 404, with the CSP, for a file that does not exist', async () => {
    const response = await get('app://switchboard/missing.js');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-security-policy')).toBe(APP_CSP);
    expect(await response.text()).toBe('not found: /missing.js');
  });
});
