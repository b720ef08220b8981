import type { ClientMessage, RequestId } from '../../src-preload/ws-messages';

/** The host's side of web mode's WebSocket protocol; the messages themselves are in src-preload/ws-messages.ts. */
export { WS_PATH, type ClientMessage, type RequestId, type ServerMessage } from '../../src-preload/ws-messages';

/** Larger inbound frames close the connection with 1009 (message too big). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/**
 * A connection that stops reading (a frozen tab, a stuck client) is cut off once this much waits
 * unsent for it, rather than growing without bound; the client reconnects and reloads.
 */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export type ParsedClientMessage = { ok: true; message: ClientMessage } | { ok: false; id?: RequestId; message: string };

/** Read one inbound frame; every fault is named so the client can tell what it sent wrong. */
export function parseClientMessage(text: string): ParsedClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    // the JavaScript engine quotes the offending UTF-16 unit, which can be half of a surrogate pair.
    return { ok: false, message: `message is not valid JSON (${wholeCharacters(error instanceof Error ? error.message : String(error))})` };
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, message: 'message must be a JSON object' };
  const fields = raw as Record<string, unknown>;
  if (fields.type !== 'invoke') {
    const got = typeof fields.type === 'string' ? `"${head(fields.type, 50)}"` : 'missing';
    return { ok: false, message: `message type ${got} is unknown (expected "invoke")` };
  }
  const id = fields.id;
  if (!(typeof id === 'string' && id.length > 0 && id.length <= 100) && !(typeof id === 'number' && Number.isSafeInteger(id))) {
    return { ok: false, message: 'invoke needs an "id": a non-empty string of up to 100 characters or an integer' };
  }
  if (typeof fields.method !== 'string') return { ok: false, id, message: 'invoke needs a "method" string' };
  return { ok: true, message: { type: 'invoke', id, method: fields.method, payload: fields.payload } };
}

/** At most `max` UTF-16 units of a text, never ending in half a surrogate pair (it would show as "�"). */
function head(text: string, max: number): string {
  const cut = text.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Half a surrogate pair on its own becomes U+FFFD, so the text is well formed wherever it goes. */
function wholeCharacters(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}
