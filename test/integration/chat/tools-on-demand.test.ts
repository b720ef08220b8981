/**
 * Tools on demand through the whole tool loop, over both wire formats (real server-everything over
 * stdio, the fake LLM). OpenAI-compatible: the model is offered the pinned tools and find_tools,
 * searches, gets the found tool on its next step. Anthropic: the other tools go deferred behind
 * Anthropic's own tool search. Either way the call takes the same approval path as always.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker, type BrokerEvent } from '../../../src-main/core/approvals/approval-broker';
import { ApprovalStore, approvalsFile } from '../../../src-main/core/approvals/approval-store';
import { ChatSessions, type ChatEvent } from '../../../src-main/core/chat/chat-session';
import { ConversationStore, conversationsDir } from '../../../src-main/core/chat/conversation-store';
import { AnthropicProvider } from '../../../src-main/core/chat/providers/anthropic-provider';
import { OpenAiCompatibleProvider } from '../../../src-main/core/chat/providers/openai-provider';
import { ToolSettings } from '../../../src-main/core/mcp/tool-settings';
import { ToolCaller } from '../../../src-main/core/tools/tool-caller';
import { ToolLoading } from '../../../src-main/core/tools/tool-loading';
import type { ApprovalRequest, ToolCallApprovalRequest, ToolCallCard } from '../../../src-preload/contract/chat';
import { startFakeLlmServer, type FakeLlmServer, type Wire } from '../../fixtures/llm/fake-llm-server';
import { SdkToolSource } from '../../support/sdk-tool-source';
import { connectEverything, EventLog, tempHome, toolNamesIn, toolResultsIn, type RecordingTransport } from './chat-test-kit';

let everything: { client: Client; wire: RecordingTransport };
beforeAll(async () => {
  everything = await connectEverything();
});
afterAll(async () => {
  await everything.client.close();
});

function onDemandChat(wire: Wire) {
  let llm: FakeLlmServer;
  let home: { home: string; cleanup: () => Promise<void> };
  let approvals: EventLog<ApprovalRequest>;
  let chat: EventLog<ChatEvent>;
  let settings: ToolSettings;
  let sessions: ChatSessions;
  let broker: ApprovalBroker;

  beforeEach(async () => {
    llm = await startFakeLlmServer();
    home = await tempHome();
    approvals = new EventLog();
    chat = new EventLog();
    settings = new ToolSettings(home.home);
    broker = new ApprovalBroker({
      store: new ApprovalStore(approvalsFile(home.home)),
      settings: () => ({ rules: [], autoAllowReadOnly: false, serverApproval: () => 'ask' }),
      emit: (e: BrokerEvent) => e.name === 'approvalRequested' && approvals.push(e.payload),
    });
    const source = new SdkToolSource([{ server: 'everything', client: everything.client }]);
    await source.refresh();
    const caller = new ToolCaller({ source, broker });
    const provider = wire === 'openai'
      ? new OpenAiCompatibleProvider({ apiKey: 'sk-test', model: 'fake-model', baseUrl: llm.openAiBaseUrl })
      : new AnthropicProvider({ apiKey: 'sk-ant-test', model: 'fake-model', baseUrl: llm.url });
    const loading = new ToolLoading({ all: () => source.tools(), candidates: () => caller.modelTools(), settings });
    sessions = new ChatSessions({ store: new ConversationStore(conversationsDir(home.home)), broker, tools: caller, loading, provider: async () => provider, emit: chat.push });
  });
  afterEach(async () => {
    await llm.close();
    await home.cleanup();
  });

  const cards = (callId: string) => chat.items.filter((e): e is { name: 'toolCallUpdated'; payload: ToolCallCard } => e.name === 'toolCallUpdated' && e.payload.callId === callId).map((e) => e.payload);
  return {
    llm: () => llm,
    settings: () => settings,
    sessions: () => sessions,
    broker: () => broker,
    approval: async () => (await approvals.next((r) => r.kind === 'tool_call')) as ToolCallApprovalRequest,
    cards,
  };
}

describe('tools on demand over the openai wire format (find_tools)', () => {
  const chat = onDemandChat('openai');

  it('offers pinned tools and find_tools; a found tool is offered from the next step and runs after approval', async () => {
    await chat.settings().setBudget({ threshold: 10_000, mode: 'on_demand' });
    await chat.settings().setToolPinned('everything', 'echo', true);
    chat.llm().script(
      { toolCalls: [{ id: 'call_find', name: 'find_tools', args: { query: 'add two numbers', limit: 3 } }] },
      { toolCalls: [{ id: 'call_sum', name: 'everything__get-sum', args: { a: 2, b: 3 } }] },
      (request) => ({ text: `Done: ${toolResultsIn(request).at(-1)}` }),
    );
    const { done } = await chat.sessions().send(undefined, 'What is 2 + 3?');
    const approval = await chat.approval();
    expect(approval).toMatchObject({ server: 'everything', tool: 'get-sum', args: { a: 2, b: 3 } });
    await chat.broker().answer({ id: approval.id, decision: 'allow_once' });
    expect(await done).toBe('done');

    expect(toolNamesIn(chat.llm().requests[0]!)).toEqual(['find_tools', 'everything__echo']);
    expect(toolNamesIn(chat.llm().requests[1]!)).toContain('everything__get-sum');
    expect(toolNamesIn(chat.llm().requests[1]!).length).toBeLessThanOrEqual(5);
    expect(toolResultsIn(chat.llm().requests[1]!)[0]).toMatch(/^Loaded \d tools? for this conversation; call them by these names:\n- everything__get-sum \(server "everything"\): /);
    expect(chat.cards('call_find').at(-1)).toMatchObject({ state: 'succeeded', because: 'searched for "add two numbers"', loaded: expect.arrayContaining([{ name: 'everything__get-sum', server: 'everything', tool: 'get-sum', title: 'Get Sum Tool' }]) });
    expect(chat.cards('call_find').some((c) => c.state === 'awaiting_approval')).toBe(false);
    expect(toolResultsIn(chat.llm().requests[2]!).at(-1)).toBe('The sum of 2 and 3 is 5.');
  });

  it('under the budget in auto mode offers every tool and no search tool, as before', async () => {
    chat.llm().script({ text: 'Hi.' });
    const { done } = await chat.sessions().send(undefined, 'hello');
    expect(await done).toBe('done');
    const offered = toolNamesIn(chat.llm().requests[0]!);
    expect(offered).not.toContain('find_tools');
    expect(offered).toContain('everything__get-sum');
    expect(offered).toContain('everything__echo');
  });

  it('a tool that was never loaded still takes the one call path when the model names it (approval asked)', async () => {
    await chat.settings().setBudget({ threshold: 10_000, mode: 'on_demand' });
    chat.llm().script({ toolCalls: [{ id: 'call_direct', name: 'everything__get-sum', args: { a: 1, b: 1 } }] }, { text: 'ok' });
    const { done } = await chat.sessions().send(undefined, 'add');
    const approval = await chat.approval();
    expect(toolNamesIn(chat.llm().requests[0]!)).toEqual(['find_tools']);
    await chat.broker().answer({ id: approval.id, decision: 'deny', reason: 'not now' });
    expect(await done).toBe('done');
    expect(chat.cards('call_direct').at(-1)).toMatchObject({ state: 'denied' });
  });
});

describe('tools on demand over the anthropic wire format (Anthropic tool search, defer_loading)', () => {
  const chat = onDemandChat('anthropic');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies
  const sent = (i: number): any[] => chat.llm().requests[i]!.body.tools ?? [];

  it('sends the other tools deferred behind the BM25 tool search; what it found loads, runs after approval, and stays loaded', async () => {
    await chat.settings().setBudget({ threshold: 10_000, mode: 'on_demand' });
    await chat.settings().setToolPinned('everything', 'echo', true);
    chat.llm().script(
      {
        toolSearch: { id: 'srvtoolu_1', query: 'add numbers', found: ['everything__get-sum', 'not_a_tool_we_sent'] },
        toolCalls: [{ id: 'toolu_sum', name: 'everything__get-sum', args: { a: 2, b: 3 } }],
      },
      { text: 'It is 5.' },
      { text: 'Still here.' },
    );
    const { conversationId, done } = await chat.sessions().send(undefined, 'What is 2 + 3?');
    const approval = await chat.approval();
    expect(approval).toMatchObject({ server: 'everything', tool: 'get-sum', args: { a: 2, b: 3 } });
    await chat.broker().answer({ id: approval.id, decision: 'allow_once' });
    expect(await done).toBe('done');

    const first = sent(0);
    expect(first[0]).toEqual({ type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' });
    expect(first.find((t) => t.name === 'everything__echo')).not.toHaveProperty('defer_loading');
    expect(first.find((t) => t.name === 'everything__get-sum')).toMatchObject({ defer_loading: true, input_schema: { type: 'object' } });
    expect(first.filter((t) => t.defer_loading === true).length).toBe(first.length - 2);
    expect(first.map((t) => t.name)).not.toContain('find_tools');
    expect(chat.cards('srvtoolu_1').at(-1)).toMatchObject({
      name: 'tool_search',
      state: 'succeeded',
      because: 'Anthropic fake-model searched for "add numbers"',
      loaded: [{ name: 'everything__get-sum', server: 'everything', tool: 'get-sum', title: 'Get Sum Tool' }],
    });
    expect(chat.cards('toolu_sum').at(-1)).toMatchObject({ state: 'succeeded' });

    // The next turn sends get-sum loaded (not deferred); a name we never sent was ignored.
    const { done: next } = await chat.sessions().send(conversationId, 'again?');
    expect(await next).toBe('done');
    const later = sent(2);
    expect(later.find((t) => t.name === 'everything__get-sum')).not.toHaveProperty('defer_loading');
    expect(later.find((t) => t.name === 'everything__get-sum')).toBeDefined();
    expect(later.map((t) => t.name)).not.toContain('not_a_tool_we_sent');
  });

  it('under the budget sends every tool, none deferred and no tool search, as before', async () => {
    chat.llm().script({ text: 'Hi.' });
    const { done } = await chat.sessions().send(undefined, 'hello');
    expect(await done).toBe('done');
    expect(sent(0).some((t) => t.defer_loading || t.type)).toBe(false);
    expect(sent(0).map((t) => t.name)).toContain('everything__get-sum');
  });
});
