import { describe, expect, it } from 'vitest';
import { judgeHost, matchesPattern } from '../../../src-main/core/sandbox/net/domain-rules';

describe('matchesPattern (VS Code\'s allowedDomains / deniedDomains)', () => {
  it('matches a name exactly, ignoring case and a trailing dot in the pattern', () => {
    expect(matchesPattern('api.github.com', 443, 'API.GitHub.com')).toBe(true);
    expect(matchesPattern('api.github.com', 443, 'api.github.com.')).toBe(true);
    expect(matchesPattern('evil-api.github.com', 443, 'api.github.com')).toBe(false);
    expect(matchesPattern('api.github.com.evil.test', 443, 'api.github.com')).toBe(false);
  });

  it('reads *.example.com as the names under example.com, not example.com itself and never an IP literal', () => {
    expect(matchesPattern('a.example.com', 443, '*.example.com')).toBe(true);
    expect(matchesPattern('a.b.example.com', 443, '*.example.com')).toBe(true);
    expect(matchesPattern('example.com', 443, '*.example.com')).toBe(false);
    expect(matchesPattern('badexample.com', 443, '*.example.com')).toBe(false);
    expect(matchesPattern('1.2.3.4', 443, '*.3.4')).toBe(false);
  });

  it('limits a grant with a port to that port', () => {
    expect(matchesPattern('example.com', 8443, 'example.com:8443')).toBe(true);
    expect(matchesPattern('example.com', 443, 'example.com:8443')).toBe(false);
    expect(matchesPattern('example.com', 443, 'example.com')).toBe(true);
  });
});

describe('judgeHost', () => {
  const rules = { allowed: ['*.example.com', 'api.github.com', '127.0.0.1'], denied: ['secret.example.com'] };

  it('lets through a granted host, saying whether a grant names it exactly', () => {
    expect(judgeHost(rules, 'a.example.com', 443)).toEqual({ ok: true, literal: false });
    expect(judgeHost(rules, 'API.GITHUB.COM.', 443)).toEqual({ ok: true, literal: true });
    expect(judgeHost(rules, '127.0.0.1', 80)).toEqual({ ok: true, literal: true });
  });

  it('refuses a denied host even when a grant matches it, and offers no Allow for it', () => {
    expect(judgeHost(rules, 'secret.example.com', 443)).toEqual({ ok: false, why: 'it is in deniedDomains', grantable: false });
  });

  it('refuses what no grant names, loopback and its IPv6 form included, with Allow offered', () => {
    for (const host of ['evil.test', 'localhost', '[::1]', '::1', '169.254.169.254', '127.0.0.2']) {
      expect(judgeHost(rules, host, 80), host).toEqual({ ok: false, why: 'it is not in allowedDomains', grantable: true });
    }
  });

  it('refuses every host when nothing is granted', () => {
    expect(judgeHost({ allowed: [], denied: [] }, 'example.com', 443).ok).toBe(false);
    expect(judgeHost(rules, '', 443).ok).toBe(false);
  });
});
