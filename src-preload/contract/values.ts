/**
 * The contract's plain values: what the renderer imports at run time. No zod here, so its schemas
 * (built when their module loads) stay out of the renderer's bundle; the schema modules re-export these.
 */

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;

/** Sent by Switchboard's sandbox proxy to the UI when the app broke its page (the spec reserves this prefix for the proxy). */
export const SANDBOX_APP_ERROR = 'ui/notifications/sandbox-app-error';

/**
 * The app's own first console error or uncaught error, from the proxy to the UI (the app's words: data, shown as
 * text in its card's failure). The proxy forwards only the first, bounded to APP_CONSOLE_MAX characters.
 */
export const SANDBOX_APP_CONSOLE_ERROR = 'ui/notifications/sandbox-app-console-error';
export const APP_CONSOLE_MAX = 1000;

/** Requests one app frame may have waiting (approvals, running calls, link asks) before the next is refused (SECURITY U7). */
export const APP_PENDING_LIMIT = 8;

/** The image types both providers take (OpenAI `image_url`, Anthropic `image`). */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/**
 * 3.75 MiB of image = 5 MiB once base64-encoded: Anthropic's maximum per image (OpenAI takes 20 MB),
 * so one limit serves both providers; bigger pictures cost many tokens and are downscaled anyway.
 */
export const MAX_IMAGE_BYTES = 3.75 * 1024 * 1024;

/** Attachments per message: each image is ~1,600 tokens at the size providers work at; more rarely helps. */
export const MAX_ATTACHMENTS = 5;

/** 384 KiB of image bytes per chunk: base64 of it stays well under web mode's 1 MiB frames. */
export const IMAGE_CHUNK_BYTES = 384 * 1024;

/** 384 KiB of bytes per chunk: base64 of it stays well under web mode's 1 MiB frames. */
export const BUNDLE_CHUNK_BYTES = 384 * 1024;

/**
 * An env or header value shown in place of a literal value: secrets never cross back to the UI.
 * Sent back unchanged in an update, it means "keep the stored value".
 */
export const MASKED_VALUE = '••••••';

/** Each top-level property's `default` in a JSON Schema: what a form built from it starts with. */
export function schemaDefaults(schema: Record<string, unknown>): Record<string, unknown> {
  const properties = schema.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return {};
  const defaults: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(properties)) {
    if (prop !== null && typeof prop === 'object' && 'default' in prop) defaults[key] = (prop as { default: unknown }).default;
  }
  return defaults;
}
