import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicProvider, toAnthropicMessages } from '../../../../src-main/core/chat/providers/anthropic-provider';
import type { TurnEvent } from '../../../../src-main/core/chat/providers/chat-provider';
import type { ChatMessage } from '../../../../src-preload/contract/chat';
import { startFakeLlmServer, type FakeLlmServer } from '../../../fixtures/llm/fake-llm-server';

let llm: FakeLlmServer;
beforeEach(async () => {
  llm = await startFakeLlmServer();
});
afterEach(async () => {
  await llm.close();
});

const collect = async (gen: AsyncGenerator<TurnEvent>) => {
  const events: TurnEvent[] = [];
  for await (const e of gen) events.push(e);
  return events;
};

const history: ChatMessage[] = [
  { role: 'user', text: 'add 2 and 3', at: 1 },
  { role: 'assistant', text: '', toolCalls: [{ id: 'toolu_1', name: 'everything__get-sum', args: { a: 2, b: 3 } }], at: 2 },
  { role: 'tool', results: [{ callId: 'toolu_1', name: 'everything__get-sum', args: { a: 2, b: 3 }, state: 'denied', textForModel: 'The user denied this tool call. Reason: no' }], at: 3 },
  { role: 'user', text: 'fine', at: 4 },
];

describe('AnthropicProvider', () => {
  it('streams text deltas, then tool calls with their joined input JSON, then the stop reason', async () => {
    llm.script({ text: 'Let me add those numbers.', toolCalls: [{ id: 'toolu_9', name: 'everything__get-sum', args: { a: 2, b: 3 } }] });
    const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', model: 'claude-test', baseUrl: llm.url });
    const events = await collect(provider.streamTurn({ messages: history, tools: [{ name: 'everything__get-sum', description: 'Adds', inputSchema: { type: 'object' } }], signal: new AbortController().signal, system: 'be brief' }));
    expect(events.filter((e) => e.type === 'text').map((e) => e.delta)).toEqual(['Let me ', 'add tho', 'se numb', 'ers.']);
    expect(events.slice(-2)).toEqual([
      { type: 'tool_call', call: { id: 'toolu_9', name: 'everything__get-sum', args: { a: 2, b: 3 } } },
      { type: 'done', stopReason: 'tool_use' },
    ]);
    const [request] = llm.requests;
    // This SDK line sends the key as a bearer token; older ones used x-api-key.
    expect(request!.headers.authorization ?? request!.headers['x-api-key']).toMatch(/^(Bearer )?sk-ant-test$/);
    expect(request!.body).toMatchObject({ model: 'claude-test', stream: true, system: 'be brief', tools: [{ name: 'everything__get-sum', description: 'Adds', input_schema: { type: 'object' } }] });
  });

  it('sends tool results as tool_result blocks (denials as errors) and merges consecutive user turns', () => {
    expect(toAnthropicMessages(history)).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'add 2 and 3' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'everything__get-sum', input: { a: 2, b: 3 } }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'The user denied this tool call. Reason: no', is_error: true },
          { type: 'text', text: 'fine' },
        ],
      },
    ]);
  });

  it('reports the API error with the provider message when the server fails', async () => {
    const provider = new AnthropicProvider({ apiKey: 'k', model: 'claude-test', baseUrl: llm.url });
    await expect(collect(provider.streamTurn({ messages: history, tools: [], signal: new AbortController().signal }))).rejects.toThrow('fake LLM: no scripted turn left');
  });
});
