import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import type { Protocol } from 'electron';
import { rendererCsp } from '../core/csp';
import { SANDBOX_FRAME_SOURCE, sandboxSchemePrivileges } from './sandbox-protocol';

/** The UI lives at app://switchboard/ (SECURITY R2): a secure, standard origin of its own. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'switchboard';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** The UI's policy: it may frame the MCP Apps sandbox and nothing else (SECURITY R2, U1). */
export const APP_CSP = rendererCsp(SANDBOX_FRAME_SOURCE);

/**
 * Must run before the app is ready, once (Electron keeps only the last call's list), so it registers the
 * apps sandbox scheme too. corsEnabled lets module scripts load from the scheme; we send no CORS headers.
 */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, corsEnabled: true } }, sandboxSchemePrivileges]);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const securityHeaders = {
  'Content-Security-Policy': APP_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

const refuse = (status: number, text: string) => new Response(text, { status, headers: { ...securityHeaders, 'Content-Type': 'text/plain; charset=utf-8' } });

/** Serves files from the built renderer, and nothing outside it, each with our CSP. */
export function appProtocolHandler(rendererDir: string): (request: Request) => Promise<Response> {
  const root = resolve(rendererDir);
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, `method ${request.method} is not allowed`);
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return refuse(404, `unknown host ${url.host}`);
    let path: string;
    try {
      path = decodeURIComponent(url.pathname);
    } catch {
      return refuse(400, 'the path is not valid percent-encoding');
    }
    if (path.includes('\0')) return refuse(400, 'the path contains a NUL character');
    const file = resolve(root, `.${path === '/' ? '/index.html' : path}`);
    const inside = relative(root, file);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return refuse(403, 'the path leads outside the app');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return refuse(404, `not found: ${path}`);
    }
    const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers: { ...securityHeaders, 'Content-Type': type } });
  };
}
