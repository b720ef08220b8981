import type { RawData, WebSocket } from 'ws';
import type { Handlers } from '../../src-preload/contract';
import { dispatch } from '../core/dispatch';
import type { EventHub } from '../core/event-hub';
import { MAX_BUFFERED_BYTES, parseClientMessage, type ServerMessage } from './ws-protocol';

/**
 * One browser connection: every invoke goes through dispatch() (the same path as Electron's IPC),
 * every EventHub event is pushed, and a bad message gets an error reply without closing the socket.
 */
export function serveConnection(socket: WebSocket, handlers: Handlers, events: EventHub): void {
  const send = (message: ServerMessage) => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) return socket.terminate();
    socket.send(encode(message));
  };
  const unsubscribe = events.subscribe((name, payload) => send({ type: 'event', name, payload }));

  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (isBinary) {
      send({ type: 'error', message: 'binary messages are not accepted; send JSON text' });
      return;
    }
    const parsed = parseClientMessage(rawText(data));
    if (!parsed.ok) {
      send(parsed.id === undefined ? { type: 'error', message: parsed.message } : { type: 'error', id: parsed.id, message: parsed.message });
      return;
    }
    const { id, method, payload } = parsed.message;
    void dispatch(handlers, method, payload).then((result) => send({ type: 'result', id, result }));
  });
  socket.on('close', unsubscribe);
  // A broken socket ends in 'close' too; without a listener 'error' would crash the process.
  socket.on('error', () => socket.terminate());
}

/** JSON for the wire; a value JSON cannot hold becomes an error naming its source instead of a throw into the core. */
function encode(message: ServerMessage): string {
  try {
    return JSON.stringify(message);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    switch (message.type) {
      case 'result':
        return JSON.stringify({ type: 'result', id: message.id, result: { ok: false, error: { code: 'internal', message: `the result could not be encoded as JSON: ${why}` } } });
      case 'event':
        return JSON.stringify({ type: 'error', message: `the ${message.name} event could not be encoded as JSON: ${why}` });
      case 'error':
        return JSON.stringify({ type: 'error', message: `an error could not be encoded as JSON: ${why}` });
    }
  }
}

function rawText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
