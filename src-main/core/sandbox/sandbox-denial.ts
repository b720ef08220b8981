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
/** Codes that name the host they failed on right after them ("getaddrinfo EAI_AGAIN api.github.com"). */
const CODES_WITH_HOST = 'ECONNREFUSED|ENETUNREACH|EAI_AGAIN|ENOTFOUND|EHOSTUNREACH';
const NET_CODE = new RegExp(`\\b(?:${CODES_WITH_HOST}|ECONNRESET|ETIMEDOUT)\\b|Network is unreachable|Temporary failure in name resolution`);
const URL_HOST = /\bhttps?:\/\/([\w.-]+(?::\d+)?)/;
const NET_OPERAND = new RegExp(`(?:${CODES_WITH_HOST})\\s+([\\w.[\\]:-]+)`);

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

/**
 * What a sandboxed server's transport tells the call path (SECURITY X1): a failed tool call whose error
 * text is a refusal (ENOENT on a hidden path that exists, EROFS, a network failure with no network), or
 * during which the server's stderr showed one, failed because of the sandbox.
 */
export interface DenialWatch {
  /** How many refusals were seen so far: taken when a call starts. */
  mark(): number;
  /** The refusal behind a failed call, in the row's words: its own error text first, else the latest seen since `mark`. */
  explain(mark: number, errorText: string): string | undefined;
}

/** The text of a failed call's result, to read for a refusal. */
export function failedResultText(result: { isError?: boolean; content?: unknown[] }): string | undefined {
  if (result.isError !== true) return undefined;
  return (result.content ?? []).flatMap((c) => (typeof c === 'object' && c !== null && (c as { type?: unknown }).type === 'text' ? [String((c as { text?: unknown }).text)] : [])).join('\n');
}

/** Where a refusal found during a call travels with its result, so the chat can offer the row's Allow beside it. */
export const SANDBOX_DENIAL_META = 'switchboard/sandboxDenial';

/**
 * A failed call's result with the refusal said first ("blocked by the sandbox: read ~/.netrc") and named in
 * `_meta`, the server's own text kept after it.
 */
export function withDenial<T extends { content: unknown[]; _meta?: Record<string, unknown> }>(result: T, denial: string): T {
  return { ...result, content: [{ type: 'text', text: denial }, ...result.content], _meta: { ...result._meta, [SANDBOX_DENIAL_META]: denial } };
}
