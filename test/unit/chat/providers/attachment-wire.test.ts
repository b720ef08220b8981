/**
 * Attachments on the wire, as each provider's SDK sends them to a fake endpoint on 127.0.0.1
 * speaking its format: images as OpenAI `image_url` data URLs and Anthropic `image` blocks, a
 * resource's text as a text part (OpenAI) or a plain-text `document` block (Anthropic), and images
 * a tool returned (after the tool messages for OpenAI, inside the tool_result for Anthropic).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider } from '../../../../src-main/core/chat/providers/anthropic-provider';
import type { ChatProvider } from '../../../../src-main/core/chat/providers/chat-provider';
import { OpenAiCompatibleProvider } from '../../../../src-main/core/chat/providers/openai-provider';
import type { ChatMessage } from '../../../../src-preload/contract/chat';
import { startFakeLlmServer, type FakeLlmServer } from '../../../fixtures/llm/fake-llm-server';

/** A real 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const history: ChatMessage[] = [
  {
    role: 'user',
    text: 'What is in these?',
    at: 1,
    attachments: [
      { kind: 'image', name: 'dot.png', mimeType: 'image/png', data: PNG },
      { kind: 'resource', server: 'everything', uri: 'demo://resource/static/document/features.md', name: 'features.md', mimeType: 'text/markdown', text: '# Features\nIt has tools.' },
      { kind: 'image', name: 'Tiny', mimeType: 'image/png', data: PNG, from: { server: 'everything', uri: 'demo://tiny.png' } },
    ],
  },
  { role: 'assistant', text: '', toolCalls: [{ id: 'call_img', name: 'everything__get-tiny-image', args: {} }], at: 2 },
  {
    role: 'tool',
    at: 3,
    results: [
      {
        callId: 'call_img',
        name: 'everything__get-tiny-image',
        args: {},
        state: 'succeeded',
        textForModel: 'A tiny image:\n[image image/png, 68 bytes]',
        result: { content: [{ type: 'text', text: 'A tiny image:' }, { type: 'image', mimeType: 'image/png', data: PNG }, { type: 'image', mimeType: 'image/tiff', data: 'AAAA' }], truncatedChars: 0 },
      },
    ],
  },
];

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer([{ text: 'A dot.' }]);
});
afterEach(async () => {
  await llm.close();
});

async function run(provider: ChatProvider, messages: ChatMessage[] = history) {
  for await (const event of provider.streamTurn({ messages, tools: [], signal: new AbortController().signal })) void event;
  return llm.requests[0]!.body;
}

describe('OpenAI-compatible wire', () => {
  it('sends a message with attachments as content parts: text, a caption per attachment, images as data URLs', async () => {
    const body = await run(new OpenAiCompatibleProvider({ apiKey: 'k', model: 'm', baseUrl: llm.openAiBaseUrl }));
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'text', text: 'Attached image "dot.png"' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'text', text: 'Attached resource demo://resource/static/document/features.md from server "everything" (text/markdown):\n# Features\nIt has tools.' },
        { type: 'text', text: 'Attached image: resource demo://tiny.png from server "everything"' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    });
  });

  it('follows the tool messages with a user message carrying the images a tool returned (types providers take only)', async () => {
    const body = await run(new OpenAiCompatibleProvider({ apiKey: 'k', model: 'm', baseUrl: llm.openAiBaseUrl }));
    expect(body.messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_img', content: 'A tiny image:\n[image image/png, 68 bytes]' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tool calls above:' },
          { type: 'text', text: 'From everything__get-tiny-image (call call_img):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
  });

  it('keeps a message without attachments a plain string, as before', async () => {
    const body = await run(new OpenAiCompatibleProvider({ apiKey: 'k', model: 'm', baseUrl: llm.openAiBaseUrl }), [{ role: 'user', text: 'hi', at: 1 }]);
    expect(body.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('tells a text-only model which images it is not shown, and sends no image part', async () => {
    const body = await run(new OpenAiCompatibleProvider({ apiKey: 'k', model: 'm', baseUrl: llm.openAiBaseUrl, imageInput: false }));
    const sent = JSON.stringify(body.messages);
    expect(sent).not.toContain('image_url');
    expect(body.messages[0].content[1]).toEqual({ type: 'text', text: '[Attached image "dot.png" — not shown: this model takes text only]' });
  });
});

describe('Anthropic wire', () => {
  it('sends images as base64 image blocks and a resource as a plain-text document block', async () => {
    const body = await run(new AnthropicProvider({ apiKey: 'k', model: 'claude-test', baseUrl: llm.url }));
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is in these?' },
        { type: 'text', text: 'Attached image "dot.png"' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        {
          type: 'document',
          source: { type: 'text', media_type: 'text/plain', data: '# Features\nIt has tools.' },
          title: 'features.md',
          context: 'Attached resource demo://resource/static/document/features.md from server "everything" (text/markdown):',
        },
        { type: 'text', text: 'Attached image: resource demo://tiny.png from server "everything"' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      ],
    });
  });

  it('puts the images a tool returned inside its tool_result, after the text', async () => {
    const body = await run(new AnthropicProvider({ apiKey: 'k', model: 'claude-test', baseUrl: llm.url }));
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'call_img',
          content: [
            { type: 'text', text: 'A tiny image:\n[image image/png, 68 bytes]' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          ],
        },
      ],
    });
  });

  it('sends no empty text block when a message is only attachments', async () => {
    const body = await run(new AnthropicProvider({ apiKey: 'k', model: 'claude-test', baseUrl: llm.url }), [
      { role: 'user', text: '', at: 1, attachments: [{ kind: 'image', name: 'dot.png', mimeType: 'image/png', data: PNG }] },
    ]);
    expect(body.messages[0].content.map((b: { type: string }) => b.type)).toEqual(['text', 'image']);
    expect(body.messages[0].content[0].text).toBe('Attached image "dot.png"');
  });
});
