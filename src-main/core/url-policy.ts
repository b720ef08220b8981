/**
 * The one gate before anything opens a URL in the system browser (SECURITY O8, R3, A5):
 * https anywhere, or http to a loopback host. Everything else — javascript:, file:, data:,
 * smb:, custom schemes, shell syntax, credentials in the URL, unparsable text — is refused.
 */
export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

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
  if (url.protocol === 'https:') return { ok: true, url: url.href };
  if (url.protocol === 'http:') {
    if (LOOPBACK_HOSTS.has(url.hostname) || /^127(\.\d{1,3}){3}$/.test(url.hostname)) return { ok: true, url: url.href };
    return { ok: false, reason: 'plain http is allowed only to this computer (loopback)' };
  }
  return { ok: false, reason: `the scheme "${url.protocol.replace(/:$/, '')}" is not allowed (only https, or http to loopback)` };
}
