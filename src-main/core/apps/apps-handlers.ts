import type { Handlers } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';

/**
 * The core has no window and so no sandbox: each shell that can show an MCP App (web host, Electron)
 * replaces `appSandbox` with its own sandbox origin. Anything else is told plainly that it cannot.
 */
export function appsHandlers(): Pick<Handlers, 'appSandbox'> {
  return {
    appSandbox: async () => {
      throw new AppFailure('unavailable', 'MCP Apps need Switchboard’s window or web mode; this shell has no app sandbox');
    },
  };
}
