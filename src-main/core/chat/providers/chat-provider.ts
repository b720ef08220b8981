/** What the tool loop needs from a model: stream one turn given the conversation and the tools. */
import type { ChatMessage, ImageMimeType, MessageAttachment, ToolCallOutcome, ToolCallRequest } from '../../../../src-preload/contract/chat';
import { IMAGE_MIME_TYPES, MAX_IMAGE_BYTES } from '../../../../src-preload/contract/values';
import type { ModelTool } from '../../tools/model-tool';

export type StopReason = 'end' | 'tool_use' | 'max_tokens' | 'other';

export type TurnEvent =
  | { type: 'text'; delta: string }
  | { type: 'tool_call'; call: ToolCallRequest }
  /** The provider's own tool search ran and referenced these tools (by the names they were sent with). */
  | { type: 'tool_search'; id: string; query: string; names: string[] }
  | { type: 'done'; stopReason: StopReason };

export interface TurnRequest {
  system?: string;
  messages: ChatMessage[];
  tools: ModelTool[];
  /** Tools on demand with a provider that searches itself: sent deferred, loaded by its tool search. */
  deferredTools?: ModelTool[];
  signal: AbortSignal;
  maxTokens?: number;
}

export interface ChatProvider {
  /** e.g. "Anthropic claude-sonnet-4-5" — names the thing at fault in errors. */
  readonly label: string;
  /** Searches deferred tools itself (Anthropic's tool search with `defer_loading`); otherwise the chat offers find_tools. */
  readonly nativeToolSearch?: boolean;
  /** Takes images as content blocks; a text-only model is refused images before anything is sent. */
  readonly imageInput: boolean;
  /** Text deltas as they arrive, then every tool call of the turn, then done. */
  streamTurn(request: TurnRequest): AsyncGenerator<TurnEvent, void, undefined>;
}

export const DEFAULT_MAX_TOKENS = 4096;

/** Parse a model's JSON arguments; a bad string becomes an error the model is told about. */
export function parseToolArguments(raw: string): { args: Record<string, unknown> } | { args: Record<string, unknown>; argsError: string } {
  if (raw.trim() === '') return { args: {} };
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return { args: parsed as Record<string, unknown> };
    return { args: {}, argsError: 'the arguments must be a JSON object' };
  } catch (error) {
    return { args: {}, argsError: `the arguments are not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** The images a tool returned that a model can be shown: the types providers take, within the size limit. */
export function toolResultImages(result: ToolCallOutcome): { mimeType: ImageMimeType; data: string }[] {
  const images: { mimeType: ImageMimeType; data: string }[] = [];
  for (const part of result.result?.content ?? []) {
    if (part.type !== 'image' || !(IMAGE_MIME_TYPES as readonly string[]).includes(part.mimeType)) continue;
    if ((part.data.length * 3) / 4 > MAX_IMAGE_BYTES) continue;
    images.push({ mimeType: part.mimeType as ImageMimeType, data: part.data });
  }
  return images;
}

/** How an attachment is introduced to the model, so it knows where each block came from. */
export function attachmentCaption(attachment: MessageAttachment): string {
  if (attachment.kind === 'resource') return `Attached resource ${attachment.uri} from server "${attachment.server}"${attachment.mimeType ? ` (${attachment.mimeType})` : ''}:`;
  return attachment.from ? `Attached image: resource ${attachment.from.uri} from server "${attachment.from.server}"` : `Attached image "${attachment.name}"`;
}
