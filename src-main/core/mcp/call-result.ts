import type { CallToolResult, CompatibilityCallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { ToolResult } from '../../../src-preload/contract/tools';

export type { ToolResult };

export const DEFAULT_TEXT_CAP = 100_000;

/**
 * The SDK's result as it came, with oversized text (text parts and embedded text resources) cut
 * to head + tail. A 2024-10-07 `toolResult` becomes one text part; nothing else is reshaped.
 */
export function capCallResult(raw: CompatibilityCallToolResult, textCap = DEFAULT_TEXT_CAP): ToolResult {
  const result: CallToolResult = 'content' in raw && Array.isArray(raw.content) ? (raw as CallToolResult) : { content: [{ type: 'text', text: stringify(raw.toolResult) }] };
  // Most results fit: then nothing is rebuilt.
  if (result.content.every((part) => textLength(part) <= textCap)) return { ...result, truncatedChars: 0 };
  let truncatedChars = 0;
  const capPart = (part: ContentBlock): ContentBlock => {
    if (part.type === 'text') {
      const cut = capText(part.text, textCap);
      if (cut.cut === 0) return part;
      truncatedChars += cut.cut;
      return { ...part, text: cut.text };
    }
    if (part.type === 'resource' && 'text' in part.resource) {
      const cut = capText(part.resource.text, textCap);
      if (cut.cut === 0) return part;
      truncatedChars += cut.cut;
      return { ...part, resource: { ...part.resource, text: cut.text } };
    }
    return part;
  };
  return { ...result, content: result.content.map(capPart), truncatedChars };
}

/** Keep the head and the tail of an oversized text, with a marker that says what was cut and what to do. */
export function capText(text: string, cap: number): { text: string; cut: number } {
  if (text.length <= cap) return { text, cut: 0 };
  const head = Math.floor(cap * 0.75);
  const tail = cap - head;
  const cut = text.length - head - tail;
  const marker = `\n\n[… ${cut.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters cut from the middle of this result; narrow the request (a smaller range, a filter, a page) to see them …]\n\n`;
  return { text: text.slice(0, head) + marker + text.slice(text.length - tail), cut };
}

function textLength(part: ContentBlock): number {
  if (part.type === 'text') return part.text.length;
  return part.type === 'resource' && 'text' in part.resource ? part.resource.text.length : 0;
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
