import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';

const MAX_CHARS_FOR_MODEL = 100_000;

/** What the model reads of a tool result: text as is, other parts described, capped in length. */
export function toolResultText(content: ContentBlock[], structured?: Record<string, unknown>): string {
  const parts = content.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
      case 'audio':
        return `[${block.type} ${block.mimeType}, ${Math.floor((block.data.length * 3) / 4)} bytes]`;
      case 'resource':
        return 'text' in block.resource ? `[resource ${block.resource.uri}]\n${block.resource.text}` : `[resource ${block.resource.uri}, binary ${block.resource.mimeType ?? ''}]`.replace(' ]', ']');
      case 'resource_link':
        return `[resource link ${block.uri}${block.name ? ` "${block.name}"` : ''}]`;
      default:
        return `[${(block as { type: string }).type} content]`;
    }
  });
  if (parts.length === 0 && structured) parts.push(JSON.stringify(structured));
  const text = parts.join('\n');
  return text.length > MAX_CHARS_FOR_MODEL ? `${text.slice(0, MAX_CHARS_FOR_MODEL)}\n[truncated: ${text.length - MAX_CHARS_FOR_MODEL} more characters]` : text;
}
