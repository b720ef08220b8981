import { existsSync } from 'node:fs';
import { isInside, type SandboxPlan } from './sandbox-plan';

/** One thing the sandbox refused, in words the row and the Allow action share. */
export type SandboxDenial =
  | { kind: 'read'; path: string }
  | { kind: 'write'; path: string }
  | { kind: 'connect'; host: string };

const QUOTED_PATH = /['"`](\/[^'"`\n]*)['"`]/;
const BARE_PATH = /(?:^|\s)(\/[^\s:'"]+)/;
const READ_FAILURE = /ENOENT|EACCES|EPERM|No such file or directory|Permission denied|Operation not permitted/;
const WRITE_FAILURE = /EROFS|Read-only file system/;
const NET_CODE = /\b(?:ECONNREFUSED|ENETUNREACH|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH|ECONNRESET|ETIMEDOUT)\b|Network is unreachable|Temporary failure in name resolution/;
const URL_HOST = /\bhttps?:\/\/([\w.-]+(?::\d+)?)/;
const NET_OPERAND = /(?:ECONNREFUSED|ENETUNREACH|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH)\s+([\w.[\]:-]+)/;

/**
 * Reads a stderr line for a refusal by this plan (SECURITY X1). A missing file is a denial only when it
 * exists outside the sandbox inside a hidden place (so a server's honest "file not found" stays its own);
 * a read-only write anywhere is one; a network failure is one when the plan gives no network.
 */
export function detectDenial(line: string, plan: SandboxPlan): SandboxDenial | undefined {
  const path = QUOTED_PATH.exec(line)?.[1] ?? BARE_PATH.exec(line)?.[1];
  if (path && WRITE_FAILURE.test(line) && !plan.grants.some((g) => g.access === 'write' && isInside(path, g.path))) {
    return { kind: 'write', path };
  }
  if (path && READ_FAILURE.test(line) && isHidden(path, plan) && existsSync(path)) return { kind: 'read', path };
  if (plan.network.kind === 'none' && NET_CODE.test(line)) {
    // npm and pip name the URL apart from the code ("fetch GET https://registry.npmjs.org/… failed with EAI_AGAIN").
    const host = URL_HOST.exec(line)?.[1] ?? NET_OPERAND.exec(line)?.[1];
    return { kind: 'connect', host: host ?? 'the network' };
  }
  return undefined;
}

function isHidden(path: string, plan: SandboxPlan): boolean {
  if ([...plan.denyRead, ...plan.sealed].some((denied) => isInside(path, denied))) return true;
  return plan.hidden.some((h) => isInside(path, h)) && !plan.grants.some((g) => isInside(path, g.path));
}

/** "read ~/.netrc", "connect to example.com": the row's words, with the home folder shortened. */
export function describeDenial(denial: SandboxDenial, home: string): string {
  const short = (path: string) => (home && isInside(path, home) ? `~${path.slice(home.length)}` : path);
  switch (denial.kind) {
    case 'read':
      return `blocked by the sandbox: read ${short(denial.path)}`;
    case 'write':
      return `blocked by the sandbox: write ${short(denial.path)}`;
    case 'connect':
      return `blocked by the sandbox: connect to ${denial.host}`;
  }
}
