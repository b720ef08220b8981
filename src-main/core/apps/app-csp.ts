import { parse } from 'tldts';
import type { AppCsp } from '../../../src-preload/contract';

/**
 * The Content-Security-Policy an MCP App runs under (SECURITY U3), built from the domains its UI resource
 * declares. Nothing declared means no network at all; the spec's restrictive default plus nothing else.
 * Inline script and style are allowed because an app is one HTML document; they run only inside the
 * sandbox origin, never on Switchboard's. So is eval (as in the ext-apps reference host): an app that
 * already runs any inline script of its author's gains nothing from it but working code — server-threejs
 * runs its scenes with `new Function`, WebAssembly apps compile at run time. The network stays what the
 * resource declared; Switchboard's own UI keeps its no-eval policy (SECURITY R2).
 */

/**
 * An origin the app may name: https/wss anywhere (an optional `*.` subdomain wildcard, an optional port
 * and path), http/ws only to this computer. A bare `*`, a scheme alone, quotes, `;` or spaces are refused:
 * each would widen or break the policy.
 */
const DECLARED_ORIGIN = /^(https|wss):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[\w.~/-]*)?$/i;
const LOCAL_ORIGIN = /^(http|ws):\/\/(localhost|127\.0\.0\.1)(:(\d{1,5}|\*))?(\/[\w.~/-]*)?$/i;

export const isDeclarableOrigin = (entry: string): boolean => (DECLARED_ORIGIN.test(entry) && wildcardNamesAHost(entry)) || LOCAL_ORIGIN.test(entry);

/**
 * A `*.` wildcard must sit below a registrable domain (SECURITY U7): `https://*.example.com` names
 * one owner's hosts, while `https://*.com`, `https://*.co.uk` or `https://*.github.io` (a public
 * suffix, from the Public Suffix List's ICANN and private sections) would let the app reach anyone's.
 * A wildcard over an IP address names no host either.
 */
function wildcardNamesAHost(entry: string): boolean {
  const wildcard = /^[a-z]+:\/\/\*\.([^:/]+)/i.exec(entry);
  if (!wildcard) return true;
  const below = parse(wildcard[1]!, { allowPrivateDomains: true });
  return !below.isIp && below.domain !== null;
}

export interface BuiltCsp {
  policy: string;
  /** Declared entries that were not origins we accept; left out of the policy (so the app gets less, never more). */
  refused: string[];
}

export function buildAppCsp(declared: AppCsp | undefined, frameAncestor: string): BuiltCsp {
  const refused: string[] = [];
  const pick = (entries: string[] | undefined): string[] => {
    const kept: string[] = [];
    for (const entry of entries ?? []) (isDeclarableOrigin(entry) ? kept : refused).push(entry);
    return [...new Set(kept)];
  };
  const resources = pick(declared?.resourceDomains);
  const connect = pick(declared?.connectDomains);
  const frames = pick(declared?.frameDomains);
  const bases = pick(declared?.baseUriDomains);
  const list = (fixed: string[], extra: string[]) => [...fixed, ...extra].join(' ');
  const policy = [
    "default-src 'none'",
    // data: and blob: scripts are the app's own code under another URL (PDF.js loads its worker that way); no network.
    `script-src ${list(["'self'", "'unsafe-inline'", "'unsafe-eval'", "'wasm-unsafe-eval'", 'data:', 'blob:'], resources)}`,
    `style-src ${list(["'self'", "'unsafe-inline'"], resources)}`,
    `img-src ${list(["'self'", 'data:', 'blob:'], resources)}`,
    `font-src ${list(["'self'", 'data:'], resources)}`,
    `media-src ${list(["'self'", 'data:', 'blob:'], resources)}`,
    `worker-src 'self' data: blob:`,
    `connect-src ${connect.length ? connect.join(' ') : "'none'"}`,
    `frame-src ${frames.length ? frames.join(' ') : "'none'"}`,
    `base-uri ${bases.length ? bases.join(' ') : "'self'"}`,
    "object-src 'none'",
    "form-action 'none'",
    // Only Switchboard's own UI may frame the proxy page.
    `frame-ancestors ${frameAncestor}`,
  ].join('; ');
  return { policy, refused };
}
