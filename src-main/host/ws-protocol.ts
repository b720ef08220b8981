import type { EventName, Result } from '../../src-preload/contract';

/**
 * The web host's WebSocket protocol, JSON text frames. The renderer's client
 * (src-renderer/lib/api/ws-client.ts) speaks the same messages; the integration test
 * runs it against this host, so the two cannot drift unnoticed.
 */
export const WS_PATH = '/ws';

/** Larger inbound frames close the connection with 1009 (message too big). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * A connection that stops reading (a frozen tab, a stuck client) is cut off once this much waits
 * unsent for it, rather than growing without bound; the client reconnects and reloads.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export type RequestId = string | number;

export type ClientMessage = { type: 'invoke'; id: RequestId; method: string; payload?: unknown };

export type ServerMessage =
  | { type: 'result'; id: RequestId; result: Result<unknown> }
  | { type: 'event'; name: EventName; payload: unknown }
  /** A message the host could not act on; `id` is set when the fault is in an identifiable invoke. */
  | { type: 'error'; id?: RequestId; message: string };

export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; id?: RequestId; message: string };

/** Read one inbound frame; every fault is named so the client can tell what it sent wrong. */
export function parseClientMessage(text: string): ParsedClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `message is not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, message: 'message must be a JSON object' };
  const fields = raw as Record<string, unknown>;
  if (fields.type !== 'invoke') {
    const got = typeof fields.type === 'string' ? `"${fields.type.slice(0, 50)}"` : 'missing';
    return { ok: false, message: `message type ${got} is unknown (expected "invoke")` };
  }
  const id = fields.id;
  if (!(typeof id === 'string' && id.length > 0 && id.length <= 100) && !(typeof id === 'number' && Number.isSafeInteger(id))) {
    return { ok: false, message: 'invoke needs an "id": a non-empty string of up to 100 characters or an integer' };
  }
  if (typeof fields.method !== 'string') return { ok: false, id, message: 'invoke needs a "method" string' };
  return { ok: true, message: { type: 'invoke', id, method: fields.method, payload: fields.payload } };
}
