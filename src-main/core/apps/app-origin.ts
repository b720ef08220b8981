import { createHash } from 'node:crypto';

/**
 * One sandbox origin per app (SECURITY U1): a name derived from its server and `ui://` resource, so two
 * apps never share an origin — the browser gives each its own renderer process, and a hung or crashed app
 * stalls only itself, never the others. The same app keeps the same name across cards and reloads.
 */
export const APP_ORIGIN_LABEL = /^app-[0-9a-f]{32}$/;

export function appOriginLabel(server: string, uri: string): string {
  return `app-${createHash('sha256').update(`${server}\n${uri}`).digest('hex').slice(0, 32)}`;
}
