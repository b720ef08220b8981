import type { Api } from '../../../src-preload/contract';
import { WS_PATH } from '../../../src-preload/ws-messages';
import { createWsApi, type ApiConnection } from './ws-client';

export type { ApiConnection, ConnectionState } from './ws-client';


/** The Electron preload's bridge is there from the start; nothing to connect, nothing to lose. */
const ALWAYS_OPEN: ApiConnection = { state: 'open', onStateChange: () => () => {} };

let chosen: { api: Api; connection: ApiConnection } | undefined;

function choose(): { api: Api; connection: ApiConnection } {
  if (window.switchboard) return { api: window.switchboard, connection: ALWAYS_OPEN };
  const client = createWsApi({ url: webSocketUrl(window.location) });
  return { api: client.api, connection: client };
}

/** The one Api the UI talks to: the preload's in Electron, the WebSocket client in web mode. */
export function getApi(): Api {
  return (chosen ??= choose()).api;
}

/** Whether the Api can reach Switchboard right now (web mode can lose its socket; Electron cannot). */
export function getConnection(): ApiConnection {
  return (chosen ??= choose()).connection;
}

/** Same host as the page (so the token cookie and the Origin check line up), ws: or wss:. */
export function webSocketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}`;
}
