import Anthropic from '@anthropic-ai/sdk';
import type { MessageParam, ContentBlockParam, ImageBlockParam, TextBlockParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ImageMimeType } from '../../../../src-preload/contract/chat';
import { attachmentCaption, DEFAULT_MAX_TOKENS, toolResultImages, type ChatProvider, type StopReason, type TurnEvent, type TurnRequest } from './chat-provider';
import type { ModelTool } from '../../tools/model-tool';

export interface AnthropicOptions {
  apiKey: string;
  model: string;
  /** Empty for api.anthropic.com. */
  baseUrl?: string;
}

/** Anthropic's Messages API through @anthropic-ai/sdk: the SDK parses the stream and joins tool input JSON. */
export class AnthropicProvider implements ChatProvider {
  readonly label: string;
  readonly nativeToolSearch = true;
  readonly imageInput = true;
  private readonly client: Anthropic;

  constructor(private readonly options: AnthropicOptions) {
    this.label = `Anthropic ${options.model}`;
    this.client = new Anthropic({ apiKey: options.apiKey, ...(options.baseUrl ? { baseURL: options.baseUrl } : {}), maxRetries: 1 });
  }

  async *streamTurn(request: TurnRequest): AsyncGenerator<TurnEvent, void, undefined> {
    const stream = this.client.messages.stream(
      {
        model: this.options.model,
        max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
        ...(request.system ? { system: request.system } : {}),
        messages: toAnthropicMessages(request.messages),
        ...toolsParam(request),
      },
      { signal: request.signal },
    );
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') yield { type: 'text', delta: event.delta.text };
    }
    const final = await stream.finalMessage();
    yield* toolSearches(final.content);
    for (const block of final.content) {
      if (block.type === 'tool_use') yield { type: 'tool_call', call: { id: block.id, name: block.name, args: (block.input ?? {}) as Record<string, unknown> } };
    }
    yield { type: 'done', stopReason: stopReason(final.stop_reason) };
  }
}

/** Tools as sent: the offered ones, then (on demand) every other tool deferred behind Anthropic's BM25 tool search. */
function toolsParam(request: TurnRequest): { tools?: Anthropic.ToolUnion[] } {
  const tool = (t: ModelTool, deferred: boolean): Anthropic.Tool => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
    ...(deferred ? { defer_loading: true } : {}),
  });
  const deferred = request.deferredTools ?? [];
  const tools: Anthropic.ToolUnion[] = [...request.tools.map((t) => tool(t, false)), ...deferred.map((t) => tool(t, true))];
  if (deferred.length) tools.unshift({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
  return tools.length ? { tools } : {};
}

/** Each tool search of the reply: its query (from the server_tool_use block) and the tools its result referenced. */
function* toolSearches(content: Anthropic.ContentBlock[]): Generator<TurnEvent> {
  const queries = new Map<string, string>();
  for (const block of content) {
    if (block.type === 'server_tool_use' && block.name.startsWith('tool_search_tool')) {
      const input = block.input as { query?: unknown; pattern?: unknown } | null;
      queries.set(block.id, String(input?.query ?? input?.pattern ?? ''));
    } else if (block.type === 'tool_search_tool_result' && block.content.type === 'tool_search_tool_search_result') {
      yield { type: 'tool_search', id: block.tool_use_id, query: queries.get(block.tool_use_id) ?? '', names: block.content.tool_references.map((r) => r.tool_name) };
    }
  }
}

function stopReason(reason: string | null): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
      return 'max_tokens';
    default:
      return 'other';
  }
}

/** Our messages as Anthropic's: tool results ride in a user turn; consecutive same-role turns merge. */
export function toAnthropicMessages(messages: ChatMessage[]): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: 'user' | 'assistant', blocks: ContentBlockParam[]) => {
    if (blocks.length === 0) return;
    const last = out.at(-1);
    if (last && last.role === role) (last.content as ContentBlockParam[]).push(...blocks);
    else out.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        push('user', [...(message.text.trim() || !message.attachments?.length ? [{ type: 'text' as const, text: message.text }] : []), ...attachmentBlocks(message)]);
        break;
      case 'assistant':
        push('assistant', [
          ...(message.text ? [{ type: 'text' as const, text: message.text }] : []),
          ...message.toolCalls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.args })),
        ]);
        break;
      case 'tool':
        push(
          'user',
          message.results.map((r): ToolResultBlockParam => {
            // Images a tool returned go back as image blocks inside its result, after the text.
            const images = toolResultImages(r).map((i) => imageBlock(i.mimeType, i.data));
            return { type: 'tool_result', tool_use_id: r.callId, content: images.length ? [{ type: 'text', text: r.textForModel }, ...images] : r.textForModel, ...(r.state === 'succeeded' ? {} : { is_error: true }) };
          }),
        );
        break;
      default:
        message satisfies never;
    }
  }
  return out;
}

/** Attachments as Anthropic blocks: an image block for an image, a plain-text document block for a resource's text. */
function attachmentBlocks(message: Extract<ChatMessage, { role: 'user' }>): ContentBlockParam[] {
  return (message.attachments ?? []).flatMap((attachment): ContentBlockParam[] => {
    if (attachment.kind === 'image') return [{ type: 'text', text: attachmentCaption(attachment) } satisfies TextBlockParam, imageBlock(attachment.mimeType, attachment.data)];
    if (attachment.text === '') return [{ type: 'text', text: `${attachmentCaption(attachment)} (empty)` }];
    return [
      {
        type: 'document',
        source: { type: 'text', media_type: 'text/plain', data: attachment.text },
        title: attachment.name,
        context: attachmentCaption(attachment),
      },
    ];
  });
}

function imageBlock(mimeType: ImageMimeType, data: string): ImageBlockParam {
  return { type: 'image', source: { type: 'base64', media_type: mimeType, data } };
}
