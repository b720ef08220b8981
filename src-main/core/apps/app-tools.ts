import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { appCspSchema, type AppCsp, type AppPermissions } from '../../../src-preload/contract';

/**
 * What a UI resource says about MCP Apps (`_meta.ui` of its resources/read content). A tool's own
 * `_meta.ui` (resource URI, visibility) is read by `toolUi` in the contract, for main and the renderer alike.
 * Server-supplied: every field is checked, and a malformed one counts as absent.
 */
export const APP_MIME_TYPE = 'text/html;profile=mcp-app';

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
