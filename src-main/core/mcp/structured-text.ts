import { isDeepStrictEqual } from 'node:util';
import type { ToolResultPart } from '../../../src-preload/contract/tool-run';

/**
 * Whether a text part already carries the structured content: the spec asks a tool that returns
 * structuredContent to send its serialized JSON as text too, and a reader should see it once.
 */
export function textCarriesStructured(content: ToolResultPart[], structured: Record<string, unknown>): boolean {
  return content.some((part) => part.type === 'text' && isDeepStrictEqual(parseJson(part.text), structured));
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
