import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../../../src-main/core/chat/providers/chat-provider';
import { OpenAiCompatibleProvider, toOpenAiMessages } from '../../../../src-main/core/chat/providers/openai-provider';
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

describe('OpenAiCompatibleProvider', () => {
  it('streams text deltas, then every tool call with its joined arguments', async () => {
    llm.script({
      text: 'Two calls coming.',
      toolCalls: [
        { id: 'call_a', name: 'everything__echo', args: { message: 'hello there' } },
        { id: 'call_b', name: 'everything__get-sum', args: { a: 1, b: 41 } },
      ],
    });
    const provider = new OpenAiCompatibleProvider({ apiKey: 'sk-test', model: 'gpt-test', baseUrl: llm.openAiBaseUrl });
    const events = await collect(provider.streamTurn({ messages: [{ role: 'user', text: 'hi', at: 1 }], tools: [{ name: 'everything__echo', description: 'Echo', inputSchema: { type: 'object' } }], signal: new AbortController().signal }));
    expect(events.filter((e) => e.type === 'text').map((e) => e.delta).join('')).toBe('Two calls coming.');
    expect(events.slice(-3)).toEqual([
      { type: 'tool_call', call: { id: 'call_a', name: 'everything__echo', args: { message: 'hello there' } } },
      { type: 'tool_call', call: { id: 'call_b', name: 'everything__get-sum', args: { a: 1, b: 41 } } },
      { type: 'done', stopReason: 'tool_use' },
    ]);
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer sk-test');
    expect(llm.requests[0]!.body).toMatchObject({ model: 'gpt-test', stream: true, tools: [{ type: 'function', function: { name: 'everything__echo', description: 'Echo', parameters: { type: 'object' } } }] });
  });

  it('ends with stopReason end when the model only talks', async () => {
    llm.script({ text: 'Just words.' });
    const provider = new OpenAiCompatibleProvider({ apiKey: 'k', model: 'm', baseUrl: llm.openAiBaseUrl });
    expect((await collect(provider.streamTurn({ messages: [{ role: 'user', text: 'hi', at: 1 }], tools: [], signal: new AbortController().signal }))).at(-1)).toEqual({ type: 'done', stopReason: 'end' });
    expect(llm.requests[0]!.body.tools).toBeUndefined();
  });

  it('sends assistant tool calls and one tool message per result', () => {
    const history: ChatMessage[] = [
      { role: 'user', text: 'echo hi', at: 1 },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'everything__echo', args: { message: 'hi' } }], at: 2 },
      { role: 'tool', results: [{ callId: 'c1', name: 'everything__echo', args: { message: 'hi' }, state: 'succeeded', textForModel: 'Echo: hi' }], at: 3 },
    ];
    expect(toOpenAiMessages('sys', history)).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'echo hi' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'everything__echo', arguments: '{"message":"hi"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Echo: hi' },
    ]);
  });
});
