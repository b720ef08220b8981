import { describe, expect, it } from 'vitest';
import { capText, mapCallResult } from '../../../src-main/core/mcp/call-result';

describe('mapCallResult', () => {
  it('maps every content type into plain data', () => {
    const mapped = mapCallResult({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', mimeType: 'image/png', data: 'AAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'BBB' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', description: 'A file' },
        { type: 'resource', resource: { uri: 'mem://x', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'mem://y', blob: 'CCC' } },
      ],
      structuredContent: { temperature: 21 },
    });
    expect(mapped).toEqual({
      isError: false,
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', mimeType: 'image/png', data: 'AAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'BBB' },
        { type: 'resource_link', uri: 'file:///a.txt', name: 'a.txt', description: 'A file' },
        { type: 'resource', uri: 'mem://x', mimeType: 'text/plain', text: 'inside' },
        { type: 'resource', uri: 'mem://y', blob: 'CCC' },
      ],
      structuredContent: { temperature: 21 },
      truncatedChars: 0,
    });
  });

  it('keeps isError and shows an unknown content type as text rather than dropping it', () => {
    expect(mapCallResult({ isError: true, content: [{ type: 'hologram', x: 1 }] })).toEqual({
      isError: true,
      content: [{ type: 'text', text: '[unsupported content type "hologram"] {"type":"hologram","x":1}' }],
      truncatedChars: 0,
    });
  });

  it('caps text inside embedded resources too', () => {
    const mapped = mapCallResult({ content: [{ type: 'resource', resource: { uri: 'm://', text: 'z'.repeat(300) } }] }, 100);
    expect(mapped.truncatedChars).toBe(200);
  });
});

describe('capText', () => {
  it('keeps head and tail and says how much was cut and what to do', () => {
    const text = `${'a'.repeat(600)}${'b'.repeat(400)}`;
    const { text: cut, cut: removed } = capText(text, 100);
    expect(removed).toBe(900);
    expect(cut).toBe(
      `${'a'.repeat(75)}\n\n[… 900 of 1,000 characters cut from the middle of this result; narrow the request (a smaller range, a filter, a page) to see them …]\n\n${'b'.repeat(25)}`,
    );
    expect(capText('short', 100)).toEqual({ text: 'short', cut: 0 });
  });
});
