import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { ReadResourceResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { appCspSchema, type AppCsp, type AppPermissions } from '../../../src-preload/contract';

/**
 * What a tool and a UI resource say about MCP Apps (`_meta.ui`), read one way for the chat, the tools
 * panel and the app bridge. Server-supplied: every field is checked, and a malformed one counts as absent.
 */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

export type AppAudience = 'model' | 'app';

/** The `ui://` resource a tool renders with; undefined when it has none or names something that is not `ui://`. */
export function toolUiResource(tool: Pick<Tool, '_meta'>): string | undefined {
  try {
    return getToolUiResourceUri(tool);
  } catch {
    return undefined;
  }
}

/** Who may call the tool (`_meta.ui.visibility`); the spec's default, both, when absent or malformed. */
export function toolAudience(tool: Pick<Tool, '_meta'>): AppAudience[] {
  const ui = tool._meta?.ui as { visibility?: unknown } | undefined;
  const visibility = ui?.visibility;
  if (!Array.isArray(visibility) || !visibility.every((v) => v === 'model' || v === 'app')) return ['model', 'app'];
  return visibility as AppAudience[];
}

/** The model is never offered a tool its server kept for apps (spec: tools/list behaviour). */
export const visibleToModel = (tool: Pick<Tool, '_meta'>): boolean => toolAudience(tool).includes('model');

/**
 * Whether an app shown for `appServer` may call `tool` of `toolServer` (SECURITY U6): only tools of its
 * own server that the server made visible to apps. The reason names the rule, for the app's error.
 */
export function appMayCall(tool: Pick<Tool, '_meta' | 'name'>, toolServer: string, appServer: string): { ok: true } | { ok: false; reason: string } {
  if (toolServer !== appServer) return { ok: false, reason: `an app of "${appServer}" may not call tools of another server ("${toolServer}")` };
  if (!toolAudience(tool).includes('app')) return { ok: false, reason: `the server did not make "${tool.name}" callable by apps` };
  return { ok: true };
}

export interface AppResource {
  html: string;
  csp?: AppCsp;
  permissions?: AppPermissions;
}

/** The HTML and declarations of a UI resource as resources/read returned it; a reason when it is not one. */
export function appResource(result: ReadResourceResult, uri: string): { ok: true; resource: AppResource } | { ok: false; reason: string } {
  const content = result.contents.find((c) => c.uri === uri) ?? (result.contents.length === 1 ? result.contents[0] : undefined);
  if (!content) return { ok: false, reason: `${uri}: the server returned ${result.contents.length} contents and none for this URI` };
  if (content.mimeType !== APP_MIME_TYPE) return { ok: false, reason: `${uri}: the MIME type is "${content.mimeType ?? 'none'}", not ${APP_MIME_TYPE}` };
  const html = 'text' in content && typeof content.text === 'string' ? content.text : Buffer.from(String((content as { blob?: string }).blob ?? ''), 'base64').toString('utf8');
  if (html.trim() === '') return { ok: false, reason: `${uri}: the resource has no HTML` };
  const ui = (content._meta as { ui?: { csp?: unknown; permissions?: unknown } } | undefined)?.ui;
  const csp = appCspSchema.safeParse(ui?.csp);
  const permissions = ui?.permissions !== null && typeof ui?.permissions === 'object' ? (ui.permissions as AppPermissions) : undefined;
  return { ok: true, resource: { html, ...(csp.success && ui?.csp !== undefined ? { csp: csp.data } : {}), ...(permissions ? { permissions } : {}) } };
}
