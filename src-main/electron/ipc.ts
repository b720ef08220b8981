import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { eventChannel, fail, invokeChannel, invokes, type Handlers, type InvokeName, type Result } from '../../src-preload/contract';
import { dispatch } from '../core/dispatch';
import type { EventHub } from '../core/event-hub';
import { APP_HOST, APP_SCHEME } from './app-protocol';

type SenderFrame = Pick<NonNullable<IpcMainInvokeEvent['senderFrame']>, 'url' | 'parent'>;

/** Why a frame may not call us, or null when it is the app's own top-level frame (SECURITY R5). */
export function senderRefusal(frame: SenderFrame | null | undefined): string | null {
  if (!frame) return 'a frame that no longer exists';
  if (frame.parent !== null) return 'a sub-frame';
  if (!URL.canParse(frame.url)) return 'a frame without a valid URL';
  // Node's URL gives "null" as the origin of a custom scheme, so compare scheme and host.
  const url = new URL(frame.url);
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return `${url.protocol}//${url.host} (not the app)`;
  return null;
}

/**
 * Binds every contract invoke to the core: sender check, then the shared dispatch (schema parse,
 * handler, errors as Result values). Returns a function that unbinds them all.
 */
export function bindIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, handlers: Handlers): () => void {
  const names = Object.keys(invokes) as InvokeName[];
  for (const name of names) {
    ipcMain.handle(invokeChannel(name), (event: IpcMainInvokeEvent, payload: unknown): Promise<Result<unknown>> => {
      const refusal = senderRefusal(event.senderFrame);
      if (refusal) return Promise.resolve(fail('forbidden_sender', `${name}: refused a call from ${refusal}`));
      return dispatch(handlers, name, payload);
    });
  }
  return () => names.forEach((name) => ipcMain.removeHandler(invokeChannel(name)));
}

/** Sends every core event to the window, when there is one. Returns the unsubscribe. */
export function forwardEvents(events: EventHub, target: () => WebContents | undefined): () => void {
  return events.subscribe((name, payload) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(eventChannel(name), payload);
  });
}
