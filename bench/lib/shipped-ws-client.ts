// The renderer's WebSocket client as shipped, alone: what a browser tab has of Switchboard's code.
import type * as WsClient from '../../src-renderer/lib/api/ws-client';
import { shippedModule } from './shipped-build';

export const { createWsApi } = (await import(shippedModule('ws-client'))) as typeof WsClient;
