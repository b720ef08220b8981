import { describe, expect, it } from 'vitest';
import { buildAppCsp } from '../../../src-main/core/apps/app-csp';
import { parseDeclaredCsp, sandboxProxyReply } from '../../../src-main/core/apps/sandbox-proxy';

const UI = 'http://127.0.0.1:4000';

describe('the sandbox proxy page (SECURITY U2, U4)', () => {
  it('serves the page with the app CSP, no caching, no referrer and every permission off', () => {
    const reply = sandboxProxyReply('GET', JSON.stringify({ connectDomains: ['https://api.example.com'] }), UI);
    expect(reply.status).toBe(200);
    expect(reply.headers).toEqual({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': buildAppCsp({ connectDomains: ['https://api.example.com'] }, UI).policy,
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), display-capture=(), clipboard-read=(), clipboard-write=(), payment=(), usb=(), serial=(), hid=()',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });

  it('loads the app into a frame sandboxed to scripts only, and talks to one UI origin', () => {
    const { body } = sandboxProxyReply('GET', null, UI);
    expect(body.match(/setAttribute\('sandbox', '([^']*)'\)/)?.[1]).toBe('allow-scripts');
    expect(body).not.toMatch(/allow-(same-origin|top-navigation|popups|forms|modals)/);
    expect(body).toContain(`const HOST = "${UI}";`);
    expect(body).not.toContain("postMessage(message, '*')");
  });

  it('keeps the UI origin a string inside its script, whatever it holds', () => {
    const { body } = sandboxProxyReply('GET', null, 'http://x</script><script>alert(1)//');
    expect(body).not.toContain('</script><script>alert(1)');
    expect(body).toContain('const HOST = "http://x\\u003c/script>\\u003cscript>alert(1)//";');
  });

  it('refuses other methods, and a csp parameter that is not the declared shape (fail closed)', () => {
    expect(sandboxProxyReply('POST', null, UI)).toMatchObject({ status: 405, body: '405: method POST is not allowed\n', headers: { Allow: 'GET, HEAD' } });
    expect(sandboxProxyReply('GET', '{not json', UI)).toMatchObject({ status: 400, body: '400: the csp parameter is not JSON\n' });
    const wrong = sandboxProxyReply('GET', JSON.stringify({ connectDomains: 'https://a.example' }), UI);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatch(/^400: the csp parameter is not a UI resource CSP: /);
    expect(wrong.headers['Content-Security-Policy']).toBe("default-src 'none'");
  });

  it('reads an absent or empty csp as "nothing declared"', () => {
    expect(parseDeclaredCsp(null)).toEqual({ ok: true, csp: undefined });
    expect(parseDeclaredCsp('')).toEqual({ ok: true, csp: undefined });
    expect(parseDeclaredCsp('{"resourceDomains":["https://a.example"],"extra":1}')).toEqual({ ok: true, csp: { resourceDomains: ['https://a.example'] } });
  });
});
