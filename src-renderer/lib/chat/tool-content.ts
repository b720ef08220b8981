/**
 * A tool result's content parts as the card shows them. Everything here is server data: text stays
 * text (rendered with interpolation, never as HTML); only images become data: URLs, and only for
 * raster types with a clean base64 payload.
 */
import type { ToolContentView } from '../../../src-preload/contract/chat';

export type ContentPiece =
  | { kind: 'text'; text: string }
  | { kind: 'image'; src: string; mimeType: string }
  | { kind: 'resource'; uri: string; mimeType?: string; text?: string }
  | { kind: 'link'; uri: string; name: string; description?: string }
  | { kind: 'other'; label: string; text: string };

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

export function contentPiece(part: ToolContentView): ContentPiece {
  const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  switch (part.type) {
    case 'text':
      return { kind: 'text', text: str(part.text) ?? '' };
    case 'image': {
      const src = imageDataUrl(part.mimeType, part.data);
      if (src) return { kind: 'image', src, mimeType: String(part.mimeType).toLowerCase() };
      return { kind: 'other', label: `image (${str(part.mimeType) ?? 'no type'}) not shown`, text: 'only PNG, JPEG, GIF, WebP and BMP images with base64 data are displayed' };
    }
    case 'audio':
      return { kind: 'other', label: `audio (${str(part.mimeType) ?? 'no type'})`, text: `${str(part.data)?.length ?? 0} base64 characters, not played` };
    case 'resource': {
      const resource = (part.resource ?? {}) as Record<string, unknown>;
      const text = str(resource.text);
      const blob = str(resource.blob);
      return {
        kind: 'resource',
        uri: str(resource.uri) ?? '(no uri)',
        ...(str(resource.mimeType) ? { mimeType: str(resource.mimeType)! } : {}),
        ...(text !== undefined ? { text } : blob !== undefined ? { text: `(binary, ${blob.length} base64 characters)` } : {}),
      };
    }
    case 'resource_link':
      return {
        kind: 'link',
        uri: str(part.uri) ?? '(no uri)',
        name: str(part.title) ?? str(part.name) ?? str(part.uri) ?? 'resource',
        ...(str(part.description) ? { description: str(part.description)! } : {}),
      };
    default:
      return { kind: 'other', label: `${part.type} content`, text: JSON.stringify(part, null, 2) };
  }
}
