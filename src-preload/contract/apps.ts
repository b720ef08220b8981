/** MCP Apps: where the sandbox proxy lives, and the shape of what a UI resource declares. */
import { z } from 'zod';
import { out, serverName } from './common';
import { toolCallInput } from './tool-run';
import type { ToolResult } from './tools';

/** The origins a UI resource asks for (`_meta.ui.csp` of its resources/read content); nothing declared = no network. */
export const appCspSchema = z
  .object({
    connectDomains: z.array(z.string().max(300)).max(50).optional(),
    resourceDomains: z.array(z.string().max(300)).max(50).optional(),
    frameDomains: z.array(z.string().max(300)).max(50).optional(),
    baseUriDomains: z.array(z.string().max(300)).max(50).optional(),
  })
  .strip();
export type AppCsp = z.infer<typeof appCspSchema>;

/** Browser capabilities a UI resource asks for (`_meta.ui.permissions`); Switchboard grants none of them (SECURITY R4). */
export interface AppPermissions {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
}

export interface AppSandboxView {
  /**
   * The sandbox proxy page for one app, on an origin of that app's own: `http://app-<hash>.localhost:<port>/proxy`
   * in web mode, `switchboard-sandbox://app-<hash>/` in Electron. AppFrame adds `?csp=`.
   */
  url: string;
}

/** An app: its server and its `ui://` resource. */
const appRef = z.object({ server: serverName, uri: z.string().startsWith('ui://', 'an app resource URI starts with ui://').max(2000) }).strict();

/** A UI resource as AppFrame needs it: the app's HTML and what it declares. */
export interface AppResourceView {
  html: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
}

export const appsInvokes = {
  /** Where AppFrame loads this app's sandbox proxy from; unavailable where nothing can show an app (the CLI). */
  appSandbox: { input: appRef, output: out<AppSandboxView>() },
  /** A tool's `ui://` resource read from its server (resources/read), checked to be an MCP App. */
  readAppResource: {
    input: appRef,
    output: out<AppResourceView>(),
  },
  /** A tool call an app asked for: the one call path with origin "app" (its own server's app-visible tools, approval applies). */
  callAppTool: { input: toolCallInput, output: out<ToolResult>() },
} as const;
