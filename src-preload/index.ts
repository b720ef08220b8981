// Preload: builds the Api from the contract and exposes it as window.switchboard. Nothing else:
// one named function per invoke and one on<Event> per event, never a generic invoke or on(channel).
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { eventChannel, events, invokeChannel, invokes, subscriberName, type Api, type EventName, type InvokeName } from './contract';

type Renderer = Pick<typeof ipcRenderer, 'invoke' | 'on' | 'removeListener'>;

export function buildApi(renderer: Renderer): Api {
  const api: Record<string, unknown> = {};
  for (const name of Object.keys(invokes) as InvokeName[]) {
    const channel = invokeChannel(name);
    api[name] = (input: unknown) => renderer.invoke(channel, input);
  }
  for (const name of Object.keys(events) as EventName[]) {
    const channel = eventChannel(name);
    api[subscriberName(name)] = (listener: (payload: unknown) => void) => {
      // The listener gets the payload only: the IPC event (and its sender) stays on this side.
      const relay = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      renderer.on(channel, relay);
      return () => {
        renderer.removeListener(channel, relay);
      };
    };
  }
  return Object.freeze(api) as Api;
}

contextBridge.exposeInMainWorld('switchboard', buildApi(ipcRenderer));
