import { isIP } from 'node:net';

/** A server's network grants, as its entry gives them (VS Code's `sandbox.network`). */
export interface DomainRules {
  allowed: string[];
  denied: string[];
}

/**
 * Whether a host may be dialled, by name (SECURITY X1). `literal` says a grant names this very host (not a
 * wildcard): only such a grant opens loopback, private and link-local destinations. `grantable` says a
 * grant in allowedDomains would let it through (not so for a host the entry denies): then the refusal is
 * offered with Allow.
 */
export type HostVerdict = { ok: true; literal: boolean } | { ok: false; why: string; grantable: boolean };

/** `Example.COM.` → `example.com`, `[::1]` → `::1`: the form patterns are compared with. */
export function normalizeHost(host: string): string {
  return host.trim().replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
}

/** `api.github.com`, `*.example.com`, either with `:port`: split as the sandbox runtime reads them. */
function splitPattern(pattern: string): { host: string; port: number | undefined } {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(pattern.trim().toLowerCase())!;
  return { host: match[1]!.replace(/\.$/, ''), port: match[2] === undefined ? undefined : Number(match[2]) };
}

/**
 * VS Code's (and the runtime's) meaning: `*.example.com` matches names under example.com, not example.com
 * itself and never an IP literal; anything else matches exactly; a `:port` limits the grant to that port.
 */
export function matchesPattern(host: string, port: number, pattern: string): boolean {
  const split = splitPattern(pattern);
  if (split.port !== undefined && split.port !== port) return false;
  if (split.host.startsWith('*.')) return !isIP(host) && host.endsWith(split.host.slice(1));
  return host === split.host;
}

/** Denied wins over allowed; a host no grant matches is refused. */
export function judgeHost(rules: DomainRules, rawHost: string, port: number): HostVerdict {
  const host = normalizeHost(rawHost);
  if (!host) return { ok: false, why: 'no host named', grantable: false };
  if (rules.denied.some((pattern) => matchesPattern(host, port, pattern))) return { ok: false, why: 'it is in deniedDomains', grantable: false };
  const matching = rules.allowed.filter((pattern) => matchesPattern(host, port, pattern));
  if (!matching.length) return { ok: false, why: 'it is not in allowedDomains', grantable: true };
  return { ok: true, literal: matching.some((pattern) => !splitPattern(pattern).host.startsWith('*.')) };
}
