import type { ToolResultPart, ToolRunResult } from '../../../src-preload/contract/tool-run';

/** A tool result in a plain, serializable shape for the chat, the UI and the CLI: the contract's own. */
export type ResultPart = ToolResultPart;
export type ToolCallResult = ToolRunResult;

export const DEFAULT_TEXT_CAP = 100_000;

/** Map what the server returned; anything unrecognized is kept as its JSON text, never dropped silently. */
export function mapCallResult(raw: unknown, textCap = DEFAULT_TEXT_CAP): ToolCallResult {
  const result = (raw ?? {}) as Record<string, unknown>;
  let truncatedChars = 0;
  const cap = (text: string) => {
    const cut = capText(text, textCap);
    truncatedChars += cut.cut;
    return cut.text;
  };
  const content: ResultPart[] = [];
  const items = Array.isArray(result.content) ? result.content : 'toolResult' in result ? [{ type: 'text', text: stringify(result.toolResult) }] : [];
  for (const item of items as Record<string, unknown>[]) content.push(mapPart(item, cap));
  const structured = result.structuredContent;
  return {
    isError: result.isError === true,
    content,
    ...(structured && typeof structured === 'object' ? { structuredContent: structured as Record<string, unknown> } : {}),
    truncatedChars,
  };
}

function mapPart(item: Record<string, unknown>, cap: (text: string) => string): ResultPart {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (item.type) {
    case 'text':
      return { type: 'text', text: cap(str(item.text) ?? '') };
    case 'image':
    case 'audio':
      return { type: item.type, mimeType: str(item.mimeType) ?? 'application/octet-stream', data: str(item.data) ?? '' };
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: str(item.uri) ?? '',
        name: str(item.name) ?? str(item.uri) ?? '',
        ...optional({ title: str(item.title), description: str(item.description), mimeType: str(item.mimeType) }),
      };
    case 'resource': {
      const resource = (item.resource ?? {}) as Record<string, unknown>;
      const text = str(resource.text);
      return {
        type: 'resource',
        uri: str(resource.uri) ?? '',
        ...optional({ mimeType: str(resource.mimeType), text: text === undefined ? undefined : cap(text), blob: str(resource.blob) }),
      };
    }
    default:
      return { type: 'text', text: cap(`[unsupported content type ${JSON.stringify(item.type)}] ${stringify(item)}`) };
  }
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

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function optional<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
}
