import type { EventName, Result } from './contract';

/**
 * Web mode's WebSocket messages (JSON text frames): the host (src-main/host) and the renderer's
 * client (src-renderer/lib/api/ws-client.ts) both speak exactly these.
 */
export const WS_PATH = '/ws';

export type RequestId = string | number;

export type ClientMessage = { type: 'invoke'; id: RequestId; method: string; payload?: unknown };

export type ServerMessage =
  | { type: 'result'; id: RequestId; result: Result<unknown> }
  | { type: 'event'; name: EventName; payload: unknown }
  /** A message the host could not act on; `id` is set when the fault is in an identifiable invoke. */
  | { type: 'error'; id?: RequestId; message: string };
