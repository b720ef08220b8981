/** Where a tool call went, in terms safe to show and export: no query string, no user info, no session id. */
import { createHash } from 'node:crypto';
import type { TransportKind } from '../../../src-preload/contract/servers';
import type { CallRoute } from '../../../src-preload/contract/traces';

export interface RouteFacts {
  transport: TransportKind;
  /** The session's sequence number: which connection of this server. */
  connection: number;
  pid?: number | undefined;
  url?: string | undefined;
  sessionId?: string | undefined;
}

export function callRoute(facts: RouteFacts): CallRoute {
  const url = facts.url === undefined ? undefined : safeUrl(facts.url);
  return {
    transport: facts.transport,
    connection: facts.connection,
    ...(facts.pid !== undefined ? { pid: facts.pid } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(facts.sessionId ? { session: sessionTag(facts.sessionId) } : {}),
  };
}

/** Origin and path only: a query or user info may carry a key the person put in the URL. */
function safeUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/** Eight hex digits of SHA-256: enough to see that the session changed, useless to resume it (SECURITY S3). */
function sessionTag(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex').slice(0, 8);
}
