import { describe, expect, it } from 'vitest';
import { capCallResult, capText } from '../../../src-main/core/mcp/call-result';

describe('capCallResult', () => {
  it('keeps the result as the server sent it: every content type, resources nested, structured content and _meta', () => {
    const raw = {
      content: [
        { type: 'text' as const, text: 'hi' },
        { type: 'image' as const, mimeType: 'image/png', data: 'AAA' },
        { type: 'audio' as const, mimeType: 'audio/wav', data: 'BBB' },
        { type: 'resource_link' as const, uri: 'file:///a.txt', name: 'a.txt', description: 'A file' },
        { type: 'resource' as const, resource: { uri: 'mem://x', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource' as const, resource: { uri: 'mem://y', blob: 'CCC' } },
      ],
      structuredContent: { temperature: 21 },
      _meta: { 'ui/view': 'compact' },
    };
    expect(capCallResult(raw)).toEqual({ ...raw, truncatedChars: 0 });
  });

  it('keeps isError and turns a 2024-10-07 toolResult into one text part', () => {
    expect(capCallResult({ isError: true, content: [{ type: 'text', text: 'no' }] })).toEqual({ isError: true, content: [{ type: 'text', text: 'no' }], truncatedChars: 0 });
    expect(capCallResult({ toolResult: { answer: 42 } })).toEqual({ content: [{ type: 'text', text: '{"answer":42}' }], truncatedChars: 0 });
  });

  it('caps text parts and text inside embedded resources, counting what was cut', () => {
    const mapped = capCallResult({ content: [{ type: 'text', text: 'y'.repeat(150) }, { type: 'resource', resource: { uri: 'm://', text: 'z'.repeat(300) } }] }, 100);
    expect(mapped.truncatedChars).toBe(250);
    expect(mapped.content[1]).toMatchObject({ type: 'resource', resource: { uri: 'm://' } });
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
