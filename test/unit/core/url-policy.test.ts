import { describe, expect, it } from 'vitest';
import { baseUrlProblem } from '../../../src-main/core/chat/providers/provider-settings';
import { remoteUrlProblem } from '../../../src-main/core/mcp/remote-connect';
import { checkExternalUrl, isLoopbackHost, transportOf, type Transport } from '../../../src-main/core/url-policy';

// The one rule, "https, or http to this machine", and every place that applies it.
describe('transportOf, and every check built on it', () => {
  it.each<[string, Transport]>([
    ['https://mcp.example.com/mcp', 'https'],
    ['https://localhost:8443/', 'https'],
    ['http://localhost:3000/mcp', 'loopback-http'],
    ['http://LOCALHOST/', 'loopback-http'],
    ['http://127.0.0.1:8123/callback', 'loopback-http'],
    ['http://127.5.6.7:8/', 'loopback-http'],
    ['http://127.1/', 'loopback-http'],
    ['http://0x7f000001/', 'loopback-http'],
    ['http://[::1]:8080/mcp', 'loopback-http'],
    ['http://[0:0:0:0:0:0:0:1]/', 'loopback-http'],
    ['http://example.com/', 'plain-http'],
    ['http://10.0.0.5/mcp', 'plain-http'],
    ['http://localhost./', 'plain-http'],
    ['http://localhost.evil.com/', 'plain-http'],
    ['http://127.0.0.1.nip.io/', 'plain-http'],
    ['http://[::ffff:127.0.0.1]/', 'plain-http'],
    ['http://[fe80::1]/', 'plain-http'],
    ['ftp://localhost/', 'other-scheme'],
    ['ws://localhost/', 'other-scheme'],
    ['file:///etc/passwd', 'other-scheme'],
  ])('%s is %s, and the browser gate, remote servers and the chat base URL all agree', (url, transport) => {
    expect(transportOf(new URL(url))).toBe(transport);
    const allowed = transport === 'https' || transport === 'loopback-http';
    expect([checkExternalUrl(url).ok, remoteUrlProblem(url) === undefined, baseUrlProblem(url) === undefined]).toEqual([allowed, allowed, allowed]);
  });

  it.each([
    ['localhost', true],
    ['[::1]', true],
    ['::1', true],
    ['127.0.0.1', true],
    ['127.255.255.254', true],
    ['128.0.0.1', false],
    ['[::2]', false],
    ['localhost.evil.com', false],
    ['evil-localhost', false],
  ])('isLoopbackHost(%s) is %s, brackets or not', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

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
