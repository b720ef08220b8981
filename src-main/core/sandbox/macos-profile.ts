import type { SandboxPlan } from './sandbox-plan';

/**
 * The sandbox-exec (Seatbelt) profile for a plan (SECURITY X1). Seatbelt takes the last matching rule, so
 * broad allows come first, then the hidden places, then the grants re-opened, then the denials.
 * Paths are quoted as SBPL string literals (backslash and quote escaped) so a path cannot end the rule.
 */
export function macosProfile(plan: SandboxPlan, tempDir: string, proxyPort?: number): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow file-read*)',
    ...plan.hidden.map((path) => `(deny file-read* (subpath ${literal(path)}))`),
    ...plan.grants.map((grant) => `(allow file-read* (subpath ${literal(grant.path)}))`),
    `(allow file-write* (subpath ${literal(tempDir)}) (literal "/dev/null") (literal "/dev/stdout") (literal "/dev/stderr"))`,
    ...plan.grants.filter((grant) => grant.access === 'write').map((grant) => `(allow file-write* (subpath ${literal(grant.path)}))`),
    ...plan.denyRead.map((path) => `(deny file-read* (subpath ${literal(path)}))`),
    ...plan.denyWrite.map((path) => `(deny file-write* (subpath ${literal(path)}))`),
    ...plan.sealed.map((path) => `(deny file-read* file-write* (subpath ${literal(path)}))`),
    // A bundle's own folder, the one package grant inside the data home, stays readable.
    ...plan.grants.filter((g) => g.from === 'package' && plan.sealed.some((s) => g.path.startsWith(`${s}/`))).map((g) => `(allow file-read* (subpath ${literal(g.path)}))`),
    // The keychain is reached over these services: no server gets the person's secrets from it.
    '(deny mach-lookup (global-name "com.apple.SecurityServer") (global-name "com.apple.securityd"))',
    ...networkRules(plan, proxyPort),
  ];
  return `${lines.join('\n')}\n`;
}

function networkRules(plan: SandboxPlan, proxyPort: number | undefined): string[] {
  // Seatbelt filters by address, not name: with domains granted, the one place the server may connect to
  // is its filtering proxy on loopback (net/filtering-proxy.ts), which decides by name.
  if (plan.network.kind === 'none' || proxyPort === undefined) return ['(deny network*)'];
  return ['(deny network*)', `(allow network-outbound (remote ip "localhost:${Math.trunc(proxyPort)}"))`];
}

function literal(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
