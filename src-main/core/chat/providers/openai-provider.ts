import OpenAI from 'openai';
import type { ChatCompletionContentPart, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ChatMessage, ToolCallOutcome } from '../../../../src-preload/contract/chat';
import { attachmentCaption, DEFAULT_MAX_TOKENS, parseToolArguments, toolResultImages, type ChatProvider, type StopReason, type TurnEvent, type TurnRequest } from './chat-provider';

export interface OpenAiCompatibleOptions {
  /** Local servers (Ollama, LM Studio, vLLM) take any key; the SDK still needs one. */
  apiKey: string;
  model: string;
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1, https://openrouter.ai/api/v1. */
  baseUrl: string;
  /** False for a text-only model (the person says so in Chat settings). */
  imageInput?: boolean;
}

/** Any OpenAI-compatible chat-completions endpoint through the `openai` SDK's stream helper. */
export class OpenAiCompatibleProvider implements ChatProvider {
  readonly label: string;
  readonly imageInput: boolean;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiCompatibleOptions) {
    this.label = `${options.model} at ${options.baseUrl}`;
    this.imageInput = options.imageInput ?? true;
    this.client = new OpenAI({ apiKey: options.apiKey, baseURL: options.baseUrl, maxRetries: 1 });
  }

  async *streamTurn(request: TurnRequest): AsyncGenerator<TurnEvent, void, undefined> {
    const tools: ChatCompletionTool[] = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
    const stream = this.client.chat.completions.stream(
      {
        model: this.options.model,
        max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
        messages: toOpenAiMessages(request.system, request.messages, this.imageInput),
        ...(tools.length ? { tools } : {}),
      },
      { signal: request.signal },
    );
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) yield { type: 'text', delta };
    }
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0];
    for (const call of choice?.message.tool_calls ?? []) {
      if (call.type !== 'function') continue;
      yield { type: 'tool_call', call: { id: call.id, name: call.function.name, ...parseToolArguments(call.function.arguments) } };
    }
    yield { type: 'done', stopReason: stopReason(choice?.finish_reason) };
  }
}

function stopReason(reason: string | null | undefined): StopReason {
  switch (reason) {
    case 'stop':
      return 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    default:
      return 'other';
  }
}

export function toOpenAiMessages(system: string | undefined, messages: ChatMessage[], imageInput = true): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.attachments?.length ? userParts(message, imageInput) : message.text });
        break;
      case 'assistant':
        out.push({
          role: 'assistant',
          content: message.text || null,
          ...(message.toolCalls.length
            ? { tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.args) } })) }
            : {}),
        });
        break;
      case 'tool': {
        for (const r of message.results) out.push({ role: 'tool', tool_call_id: r.callId, content: r.textForModel });
        // A tool message carries text only: images a tool returned follow as a user message of image parts.
        const images = imageInput ? toolImageParts(message.results) : [];
        if (images.length) out.push({ role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, ...images] });
        break;
      }
      default:
        message satisfies never;
    }
  }
  return out;
}

/** A message with attachments as content parts: its text, then each attachment under a caption. */
function userParts(message: Extract<ChatMessage, { role: 'user' }>, imageInput: boolean): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = message.text.trim() ? [{ type: 'text', text: message.text }] : [];
  for (const attachment of message.attachments ?? []) {
    if (attachment.kind === 'resource') parts.push({ type: 'text', text: `${attachmentCaption(attachment)}\n${attachment.text}` });
    else if (!imageInput) parts.push({ type: 'text', text: `[${attachmentCaption(attachment)} — not shown: this model takes text only]` });
    else parts.push({ type: 'text', text: attachmentCaption(attachment) }, { type: 'image_url', image_url: { url: `data:${attachment.mimeType};base64,${attachment.data}` } });
  }
  return parts;
}

function toolImageParts(results: ToolCallOutcome[]): ChatCompletionContentPart[] {
  return results.flatMap((r) =>
    toolResultImages(r).flatMap((image): ChatCompletionContentPart[] => [
      { type: 'text', text: `From ${r.name} (call ${r.callId}):` },
      { type: 'image_url', image_url: { url: `data:${image.mimeType};base64,${image.data}` } },
    ]),
  );
}
