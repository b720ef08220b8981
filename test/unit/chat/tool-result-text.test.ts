import { describe, expect, it } from 'vitest';
import { toolResultText } from '../../../src-main/core/chat/tool-result-text';

describe('toolResultText', () => {
  it('keeps text and describes other parts without their bytes', () => {
    expect(
      toolResultText([
        { type: 'text', text: 'Here you go' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'file body' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA', mimeType: 'application/gzip' } },
        { type: 'resource_link', uri: 'demo://resource/1', name: 'Resource 1' },
      ]),
    ).toBe('Here you go\n[image image/png, 3 bytes]\n[resource file:///a.txt]\nfile body\n[resource file:///b.bin, binary application/gzip]\n[resource link demo://resource/1 "Resource 1"]');
  });
  it('falls back to structured content when there is no content', () => {
    expect(toolResultText([], { temperature: 21 })).toBe('{"temperature":21}');
  });
  it('caps very long results and says how much was cut', () => {
    const text = toolResultText([{ type: 'text', text: 'x'.repeat(100_010) }]);
    expect(text.endsWith('\n[truncated: 10 more characters]')).toBe(true);
    expect(text.length).toBe(100_000 + '\n[truncated: 10 more characters]'.length);
  });
});
