import { describe, expect, it } from 'vitest';
import { checkExternalUrl } from '../../../src-main/core/url-policy';

describe('checkExternalUrl', () => {
  it.each([
    'https://example.com/authorize?x=1',
    'http://127.0.0.1:8123/callback',
    'http://localhost:3000/',
    'http://[::1]:9000/',
  ])('allows %s', (url) => {
    expect(checkExternalUrl(url)).toEqual({ ok: true, url: new URL(url).href });
  });

  it.each([
    ['javascript:alert(1)', 'the scheme "javascript" is not allowed (only https, or http to loopback)'],
    ['file:///etc/passwd', 'the scheme "file" is not allowed (only https, or http to loopback)'],
    ['data:text/html,<script>', 'the URL contains characters a URL may not hold'],
    ['data:text/html,hi', 'the scheme "data" is not allowed (only https, or http to loopback)'],
    ['smb://attacker/share', 'the scheme "smb" is not allowed (only https, or http to loopback)'],
    ['vscode://ext/install', 'the scheme "vscode" is not allowed (only https, or http to loopback)'],
    ['http://example.com/', 'plain http is allowed only to this computer (loopback)'],
    ['https://a.com/$(calc.exe)', 'the URL contains shell syntax'],
    ['https://a.com/${IFS}x', 'the URL contains characters a URL may not hold'],
    ["https://a.com/';calc;'", 'the URL contains characters a URL may not hold'],
    ['https://user:pw@a.com/', 'the URL carries a user name or password'],
    ['not a url', 'the URL contains characters a URL may not hold'],
    ['nourl', 'the URL cannot be parsed'],
    ['', 'the URL is empty'],
  ])('refuses %s', (url, reason) => {
    expect(checkExternalUrl(url)).toEqual({ ok: false, reason });
  });
});
