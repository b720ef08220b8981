import type { Handlers } from '../../../src-preload/contract';
import { AppFailure } from '../app-error';
import type { McpManager } from '../mcp/mcp-manager';
import { resultOrThrow, type ToolCaller } from '../tools/tool-caller';
import { checkExternalUrl } from '../url-policy';
import { AppRequests } from './app-requests';
import { appResource } from './app-tools';

export interface AppsDeps {
  mcp: Pick<McpManager, 'readResource'>;
  caller: Pick<ToolCaller, 'call'>;
}

/**
 * MCP Apps in the core: an app's resource read from its server, and the tool calls an app asks for,
 * which take the one call path with origin "app" (SECURITY U6, A1). The core has no window and so no
 * sandbox: each shell that can show an app (web host, Electron) replaces `appSandbox` with its own origin.
 */
export function appsHandlers(deps: AppsDeps, requests = new AppRequests()): Pick<Handlers, 'appSandbox' | 'readAppResource' | 'callAppTool' | 'checkAppLink' | 'endAppRequests' | 'denyAppRequests'> {
  return {
    appSandbox: async () => {
      throw new AppFailure('unavailable', 'MCP Apps need Switchboard’s window or web mode; this shell has no app sandbox');
    },
    readAppResource: async ({ server, uri }) => {
      const read = appResource(await deps.mcp.readResource(server, uri), uri);
      if (!read.ok) throw new AppFailure('conflict', `server "${server}" has no usable app at ${read.reason}`);
      return read.resource;
    },
    // Bounded and ended per frame (SECURITY U7); a caller that names no frame shares one per server.
    callAppTool: async ({ server, tool, args, frame }) =>
      requests.run(frame ?? `server-${server}`, server, async (controller) => resultOrThrow(await deps.caller.call({ server, tool }, args, { origin: 'app', appServer: server, controller }))),
    checkAppLink: async ({ url }) => {
      const verdict = checkExternalUrl(url);
      if (!verdict.ok) throw new AppFailure('invalid_input', `the app asked to open a link Switchboard does not open: ${verdict.reason}`);
      return { url: verdict.url };
    },
    endAppRequests: async ({ frame, reason }) => ({ ended: requests.end(frame, reason) }),
    denyAppRequests: async ({ server }) => ({ ended: requests.denyServer(server) }),
  };
}
