/**
 * A tool result's content parts as the card shows them. Everything here is server data: text stays
 * text (rendered with interpolation, never as HTML); only images become data: URLs, and only for
 * raster types with a clean base64 payload.
 */
import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';

/** Raster types only: an SVG can carry script and links, so it is shown as text instead. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/bmp']);
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Text longer than this (or with more lines) starts collapsed. */
export const COLLAPSE_CHARS = 600;
export const COLLAPSE_LINES = 12;

export function isLong(text: string): boolean {
  if (text.length > COLLAPSE_CHARS) return true;
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10 && ++lines > COLLAPSE_LINES) return true;
  return false;
}

export function imageDataUrl(mimeType: unknown, data: unknown): string | undefined {
  if (typeof mimeType !== 'string' || typeof data !== 'string') return undefined;
  const type = mimeType.toLowerCase();
  if (!IMAGE_TYPES.has(type) || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) return undefined;
  return `data:${type};base64,${data}`;
}

/** An embedded resource's text, or a note of its binary size. */
export function resourceText(block: Extract<ContentBlock, { type: 'resource' }>): string {
  const { resource } = block;
  return 'text' in resource ? resource.text : `(binary, ${resource.blob.length} base64 characters)`;
}
