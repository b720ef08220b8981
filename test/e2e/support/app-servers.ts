import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { APP_MIME_TYPE, appResource, type AppResource } from '../../../src-main/core/apps/app-tools';
import { toolUi, visibleTo } from '../../../src-preload/contract/tools';

/** An MCP App server over stdio, read with the SDK's own client, as the core will. */
export interface AppServer {
  name: string;
  client: Client;
  tools: Tool[];
  /** The UI resource of a tool, read and checked. */
  appFor(tool: string): Promise<AppResource & { appUri: string }>;
  close(): Promise<void>;
}

export async function connectAppServer(name: string, command: string, args: string[]): Promise<AppServer> {
  const client = new Client(
    { name: 'switchboard-test', version: '0.1.0' },
    { capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [APP_MIME_TYPE] } } } },
  );
  await client.connect(new StdioClientTransport({ command, args, stderr: 'pipe' }));
  const { tools } = await client.listTools();
  return {
    name,
    client,
    tools,
    async appFor(toolName) {
      const tool = tools.find((t) => t.name === toolName);
      const uri = tool && toolUi(tool).resourceUri;
      if (!uri) throw new Error(`${name}: ${toolName} has no UI resource`);
      const read = appResource(await client.readResource({ uri }), uri);
      if (!read.ok) throw new Error(read.reason);
      return { ...read.resource, appUri: uri };
    },
    close: () => client.close(),
  };
}

export interface CallAttempt {
  server: string;
  tool: string;
  outcome: 'called' | 'refused' | 'denied';
}

/**
 * Stands in for the host's call policy (the core's callTool with origin "app", which the lead wires):
 * the visibility rule from app-tools, then an approval that says no to the tools in `denied`.
 */
export function appCallPolicy(servers: AppServer[], denied: Set<string>, attempts: CallAttempt[]) {
  return async (serverName: string, toolName: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    const server = servers.find((s) => s.name === serverName);
    const tool = server?.tools.find((t) => t.name === toolName);
    if (!server || !tool) throw new Error(`no tool "${toolName}" on "${serverName}"`);
    if (!visibleTo(tool, 'app')) {
      attempts.push({ server: serverName, tool: toolName, outcome: 'refused' });
      throw new Error(`the server did not make "${toolName}" callable by apps`);
    }
    if (denied.has(toolName)) {
      attempts.push({ server: serverName, tool: toolName, outcome: 'denied' });
      throw new Error(`the person denied the app's call to "${toolName}"`);
    }
    attempts.push({ server: serverName, tool: toolName, outcome: 'called' });
    return (await server.client.callTool({ name: toolName, arguments: args })) as CallToolResult;
  };
}
