/** MCP Apps: where the sandbox proxy lives, and the shape of what a UI resource declares. */
import { z } from 'zod';
import { empty, out } from './common';

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

/** Sent by Switchboard's sandbox proxy to the UI when the app broke its page (the spec reserves this prefix for the proxy). */
export const SANDBOX_APP_ERROR = 'ui/notifications/sandbox-app-error';

export interface AppSandboxView {
  /**
   * The sandbox proxy page, on an origin of its own: `http://localhost:<port>/proxy` (or 127.0.0.1, whichever
   * the UI is not on) in web mode, `switchboard-sandbox://proxy/` in Electron. AppFrame adds `?csp=`.
   */
  url: string;
}

export const appsInvokes = {
  /** Where AppFrame loads its sandbox proxy from; unavailable where nothing can show an app (the CLI). */
  appSandbox: { input: empty, output: out<AppSandboxView>() },
} as const;
