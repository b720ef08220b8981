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

/** One app frame, named by the UI that shows it (a random id per card): its requests live and die with it. */
const appFrameId = z.string().regex(/^[\w-]{8,64}$/, 'an app frame id is 8 to 64 letters, digits, "_" or "-"');

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
  callAppTool: { input: toolCallInput.extend({ frame: appFrameId.optional() }).strict(), output: out<ToolResult>() },
  /** The URL policy (O8) on a link an app asks to open, before the person is shown it: the URL as it would open. */
  checkAppLink: { input: z.object({ url: z.string().max(8192) }).strict(), output: out<{ url: string }>() },
  /**
   * Ends every request an app frame has waiting in main: "denied" when the person denies them all at
   * once (the app may ask again), "closed" when its card goes (it never may). Answers how many ended.
   */
  endAppRequests: { input: z.object({ frame: appFrameId, reason: z.enum(['denied', 'closed']) }).strict(), output: out<{ ended: number }>() },
  /** "Deny all from this app" in the approval dialog: every request the apps of `server` have waiting in main, denied. */
  denyAppRequests: { input: z.object({ server: serverName }).strict(), output: out<{ ended: number }>() },
} as const;
