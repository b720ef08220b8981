/**
 * The one gate before anything opens a URL in the system browser (SECURITY O8, R3, A5):
 * https anywhere, or http to a loopback host. Everything else — javascript:, file:, data:,
 * smb:, custom schemes, shell syntax, credentials in the URL, unparsable text — is refused.
 */
export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

/**
 * This machine: localhost, 127.0.0.0/8 or ::1, as URL.hostname writes them (an IPv6 address in
 * brackets; without them is accepted too). The URL parser has already folded other spellings
 * (LOCALHOST, 127.1, 0x7f000001, [0:0:0:0:0:0:0:1]) into these. Names that merely look local
 * ("localhost.", "localhost.evil.com", "127.0.0.1.nip.io") are not this machine.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The one rule for every address Switchboard connects to or opens (servers, OAuth, the chat
 * provider's base URL, the system browser): https anywhere, or http to this machine.
 */
export type Transport = 'https' | 'loopback-http' | 'plain-http' | 'other-scheme';

export function transportOf(url: URL): Transport {
  if (url.protocol === 'https:') return 'https';
  if (url.protocol !== 'http:') return 'other-scheme';
  return isLoopbackHost(url.hostname) ? 'loopback-http' : 'plain-http';
}

export function checkExternalUrl(raw: string): UrlVerdict {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'the URL is empty' };
  if (raw.length > 8192) return { ok: false, reason: 'the URL is too long' };
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\s\u0000-\u001f\u007f"'`<>\\^{|}]/.test(raw)) return { ok: false, reason: 'the URL contains characters a URL may not hold' };
  // Shell substitution has no business in a URL (CVE-2025-6514 reached a shell this way).
  if (/\$[({]/.test(raw)) return { ok: false, reason: 'the URL contains shell syntax' };
  if (!URL.canParse(raw)) return { ok: false, reason: 'the URL cannot be parsed' };
  const url = new URL(raw);
  if (url.username || url.password) return { ok: false, reason: 'the URL carries a user name or password' };
  switch (transportOf(url)) {
    case 'https':
    case 'loopback-http':
      return { ok: true, url: url.href };
    case 'plain-http':
      return { ok: false, reason: 'plain http is allowed only to this computer (loopback)' };
    case 'other-scheme':
      return { ok: false, reason: `the scheme "${url.protocol.replace(/:$/, '')}" is not allowed (only https, or http to loopback)` };
  }
}
