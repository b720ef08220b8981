/**
 * The SDK's Streamable HTTP and SSE transports (with their EventSource client, ~1.2 MB resident) load
 * with the first remote server (remote-connect.ts), not at start: a person with stdio servers only
 * never needs them. Until they load, no error can come from them, so these checks need no import.
 */
import type { SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import type { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

interface TransportErrorClasses {
  StreamableHTTPError: typeof StreamableHTTPError;
  SseError: typeof SseError;
}

let loaded: TransportErrorClasses | undefined;

/** Called once by remote-connect.ts as it loads the transports. */
export function transportsLoaded(classes: TransportErrorClasses): void {
  loaded = classes;
}

/** The HTTP status a remote transport's error carries, if it is one. */
export function transportErrorCode(error: unknown): number | undefined {
  if (loaded && (error instanceof loaded.StreamableHTTPError || error instanceof loaded.SseError)) return error.code;
  return undefined;
}

/** A POST carrying a session id answered 404: the server forgot the session and wants a new initialize. */
export function isSessionExpired(error: unknown): boolean {
  return loaded !== undefined && error instanceof loaded.StreamableHTTPError && error.code === 404;
}
