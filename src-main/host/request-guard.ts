import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The checks every request to the web host passes before anything else (SECURITY T2):
 * the Host header must name this server (DNS rebinding), an Origin must be this server's
 * (cross-site pages), and the per-launch token must come with it (any other local program).
 */
export type Verdict = { ok: true } | { ok: false; status: 401 | 403; reason: string };

export const TOKEN_QUERY = 'token';

/** A fresh per-launch token: 32 random bytes, URL-safe. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/**
 * Cookies are shared by every port of a host, so the name carries the port: two Switchboards
 * on 127.0.0.1 must not overwrite each other's token.
 */
export const tokenCookieName = (port: number): string => `switchboard_token_${port}`;

export function tokenCookie(port: number, token: string): string {
  return `${tokenCookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

const allowedHosts = (port: number): string[] => [`127.0.0.1:${port}`, `localhost:${port}`];

export function checkHost(req: IncomingMessage, port: number): Verdict {
  const host = req.headers.host;
  if (host === undefined) return { ok: false, status: 403, reason: 'the request has no Host header' };
  if (allowedHosts(port).includes(host.toLowerCase())) return { ok: true };
  return { ok: false, status: 403, reason: `Host "${clip(host)}" is not this server (expected 127.0.0.1:${port} or localhost:${port})` };
}

/** A plain navigation may omit Origin; a WebSocket upgrade must carry it (browsers always send it). */
export function checkOrigin(req: IncomingMessage, port: number, required: boolean): Verdict {
  const origin = req.headers.origin;
  if (origin === undefined) {
    return required ? { ok: false, status: 403, reason: 'the WebSocket request has no Origin header' } : { ok: true };
  }
  if (allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`)) return { ok: true };
  return { ok: false, status: 403, reason: `Origin "${clip(origin)}" is not this server (expected http://127.0.0.1:${port} or http://localhost:${port})` };
}

/** The token from `?token=` when present (it wins), else from this port's cookie. */
export function presentedToken(req: IncomingMessage, url: URL, port: number): string | undefined {
  const fromQuery = url.searchParams.get(TOKEN_QUERY);
  if (fromQuery !== null) return fromQuery;
  return readCookie(req.headers.cookie, tokenCookieName(port));
}

export function checkToken(presented: string | undefined, expected: string): Verdict {
  if (presented === undefined || presented === '') {
    return { ok: false, status: 401, reason: 'no token: open the address Switchboard printed when it started (it carries ?token=…)' };
  }
  if (!sameSecret(presented, expected)) {
    return { ok: false, status: 401, reason: 'wrong token: open the address this Switchboard printed when it started; tokens change at every launch' };
  }
  return { ok: true };
}

/** Constant-time comparison; hashing first makes the lengths equal so the length leaks nothing either. */
export function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Header values end up in error text; keep them short. */
const clip = (value: string): string => (value.length > 100 ? `${value.slice(0, 100)}…` : value);
