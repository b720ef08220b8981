import { describe, expect, it } from 'vitest';
import { buildAppCsp, isDeclarableOrigin } from '../../../src-main/core/apps/app-csp';

const UI = 'http://127.0.0.1:4000';

describe('the CSP an MCP App runs under (SECURITY U3)', () => {
  it('allows no network, no frames and no plugins when the resource declares nothing', () => {
    const { policy, refused } = buildAppCsp(undefined, UI);
    expect(policy).toBe(
      [
        "default-src 'none'",
        "script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' data: blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "media-src 'self' data: blob:",
        "worker-src 'self' data: blob:",
        "connect-src 'none'",
        "frame-src 'none'",
        "base-uri 'self'",
        "object-src 'none'",
        "form-action 'none'",
        `frame-ancestors ${UI}`,
      ].join('; '),
    );
    expect(refused).toEqual([]);
  });

  it('adds each declared origin to its own directives only', () => {
    const { policy } = buildAppCsp(
      { connectDomains: ['https://api.example.com', 'wss://live.example.com'], resourceDomains: ['https://*.cdn.example'], frameDomains: ['https://www.youtube.com'], baseUriDomains: ['https://base.example'] },
      UI,
    );
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com;');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' data: blob: https://*.cdn.example;");
    expect(policy).toContain("img-src 'self' data: blob: https://*.cdn.example;");
    expect(policy).toContain('frame-src https://www.youtube.com;');
    expect(policy).toContain('base-uri https://base.example;');
    // A resource domain is not a connect domain.
    expect(policy).not.toMatch(/connect-src[^;]*cdn\.example/);
  });

  it('drops entries that would widen or break the policy, and lists them', () => {
    const hostile = ['*', 'https:', "'unsafe-eval'", 'https://a.example; script-src *', 'https://a.example b.example', 'http://example.com', 'javascript:alert(1)', 'data:', 'https://ok.example'];
    const { policy, refused } = buildAppCsp({ connectDomains: hostile }, UI);
    expect(policy).toContain('connect-src https://ok.example;');
    expect(refused).toEqual(hostile.filter((h) => h !== 'https://ok.example'));
    expect(policy.split('; ').filter((d) => d.startsWith('script-src'))).toEqual(["script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval' data: blob:"]);
  });

  it('accepts https/wss anywhere and http/ws to this computer only', () => {
    expect(['https://a.example', 'https://a.example:8443/path/', 'wss://a.example', 'http://localhost:3000', 'ws://127.0.0.1:*'].map(isDeclarableOrigin)).toEqual([true, true, true, true, true]);
    expect(['http://a.example', 'ws://10.0.0.1', 'ftp://a.example', 'https://', 'https://a.example?x=1'].map(isDeclarableOrigin)).toEqual([false, false, false, false, false]);
  });

  it.each(['https://*.com', 'https://*.co.uk', 'https://*.github.io', 'wss://*.appspot.com', 'https://*.com:443', 'https://*.127.0.0.1', 'https://*.COM/path'])(
    'refuses %s: a wildcard at or above a registrable domain names no host (U7)',
    (entry) => {
      expect(isDeclarableOrigin(entry)).toBe(false);
      const { policy, refused } = buildAppCsp({ connectDomains: [entry], resourceDomains: [entry] }, UI);
      expect(refused).toEqual([entry, entry]);
      expect(policy).toContain("connect-src 'none';");
      expect(policy).not.toContain(entry);
    },
  );

  it.each(['https://*.example.com', 'wss://*.example.co.uk', 'https://*.alice.github.io', 'https://*.cdn.example', 'https://api.github.io'])(
    'accepts %s: a wildcard below a registrable domain, or a host on a public suffix (U7)',
    (entry) => {
      expect(isDeclarableOrigin(entry)).toBe(true);
    },
  );
});
