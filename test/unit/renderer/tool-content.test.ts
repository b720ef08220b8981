import { describe, expect, it } from 'vitest';
import { contentPiece, imageDataUrl, isLong } from '../../../src-renderer/lib/chat/tool-content';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('imageDataUrl', () => {
  it('builds a data: URL for raster images with clean base64', () => {
    expect(imageDataUrl('image/PNG', PNG)).toBe(`data:image/png;base64,${PNG}`);
  });

  it('refuses SVG (it can carry script), unknown types and payloads that are not base64', () => {
    expect(imageDataUrl('image/svg+xml', PNG)).toBeUndefined();
    expect(imageDataUrl('text/html', PNG)).toBeUndefined();
    expect(imageDataUrl('image/png', 'AAAA"><script>')).toBeUndefined();
    expect(imageDataUrl('image/png', 'abc')).toBeUndefined();
    expect(imageDataUrl('image/png', '')).toBeUndefined();
    expect(imageDataUrl(undefined, PNG)).toBeUndefined();
  });
});

describe('contentPiece', () => {
  it('keeps text as text, markup included', () => {
    expect(contentPiece({ type: 'text', text: '<img src=x onerror=alert(1)>' })).toEqual({ kind: 'text', text: '<img src=x onerror=alert(1)>' });
  });

  it('shows an image, and explains one it will not show', () => {
    expect(contentPiece({ type: 'image', mimeType: 'image/png', data: PNG })).toEqual({ kind: 'image', src: `data:image/png;base64,${PNG}`, mimeType: 'image/png' });
    expect(contentPiece({ type: 'image', mimeType: 'image/svg+xml', data: PNG })).toMatchObject({ kind: 'other', label: 'image (image/svg+xml) not shown' });
  });

  it('shows an embedded resource by URI with its text, and a blob by size', () => {
    expect(contentPiece({ type: 'resource', resource: { uri: 'demo://a', mimeType: 'text/plain', text: 'hello' } })).toEqual({
      kind: 'resource',
      uri: 'demo://a',
      mimeType: 'text/plain',
      text: 'hello',
    });
    expect(contentPiece({ type: 'resource', resource: { uri: 'demo://b', blob: 'AAAA' } })).toEqual({ kind: 'resource', uri: 'demo://b', text: '(binary, 4 base64 characters)' });
  });

  it('shows a resource link by its title and URI', () => {
    expect(contentPiece({ type: 'resource_link', uri: 'demo://r/1', name: 'r1', title: 'Resource 1', description: 'first' })).toEqual({
      kind: 'link',
      uri: 'demo://r/1',
      name: 'Resource 1',
      description: 'first',
    });
  });

  it('describes audio and unknown parts as text', () => {
    expect(contentPiece({ type: 'audio', mimeType: 'audio/wav', data: 'AAAA' })).toEqual({ kind: 'other', label: 'audio (audio/wav)', text: '4 base64 characters, not played' });
    expect(contentPiece({ type: 'hologram', x: 1 })).toEqual({ kind: 'other', label: 'hologram content', text: '{\n  "type": "hologram",\n  "x": 1\n}' });
  });
});

describe('isLong', () => {
  it('collapses long text and text with many lines, not short text', () => {
    expect(isLong('x'.repeat(601))).toBe(true);
    expect(isLong('a\n'.repeat(12))).toBe(true);
    expect(isLong('a\n'.repeat(11))).toBe(false);
    expect(isLong('short')).toBe(false);
  });
});
