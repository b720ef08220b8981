/**
 * Tools on demand through the whole tool loop, over both wire formats: the model is offered the
 * pinned tools and the search tool, searches, gets the found tool on its next step, and calls it
 * through the same approval path as always (real server-everything over stdio, the fake LLM).
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

describe.each<Wire>(['openai', 'anthropic'])('tools on demand over the %s wire format', (wire) => {
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

  it('offers pinned tools and find_tools; a found tool is offered from the next step and runs after approval', async () => {
    await settings.setBudget({ threshold: 10_000, mode: 'on_demand' });
    await settings.setToolPinned('everything', 'echo', true);
    llm.script(
      { toolCalls: [{ id: 'call_find', name: 'find_tools', args: { query: 'add two numbers', limit: 3 } }] },
      { toolCalls: [{ id: 'call_sum', name: 'everything__get-sum', args: { a: 2, b: 3 } }] },
      (request) => ({ text: `Done: ${toolResultsIn(request).at(-1)}` }),
    );
    const { done } = await sessions.send(undefined, 'What is 2 + 3?');
    const approval = (await approvals.next((r) => r.kind === 'tool_call')) as ToolCallApprovalRequest;
    expect(approval).toMatchObject({ server: 'everything', tool: 'get-sum', args: { a: 2, b: 3 } });
    await broker.answer({ id: approval.id, decision: 'allow_once' });
    expect(await done).toBe('done');

    expect(toolNamesIn(llm.requests[0]!)).toEqual(['find_tools', 'everything__echo']);
    expect(toolNamesIn(llm.requests[1]!)).toContain('everything__get-sum');
    expect(toolNamesIn(llm.requests[1]!).length).toBeLessThanOrEqual(5);
    expect(toolResultsIn(llm.requests[1]!)[0]).toMatch(/^Loaded \d tools? for this conversation; call them by these names:\n- everything__get-sum \(server "everything"\): /);
    expect(cards('call_find').at(-1)).toMatchObject({ state: 'succeeded', because: 'searched for "add two numbers"', loaded: expect.arrayContaining([{ name: 'everything__get-sum', server: 'everything', tool: 'get-sum', title: 'Get Sum Tool' }]) });
    expect(cards('call_find').some((c) => c.state === 'awaiting_approval')).toBe(false);
    expect(toolResultsIn(llm.requests[2]!).at(-1)).toBe('The sum of 2 and 3 is 5.');
  });

  it('under the budget in auto mode offers every tool and no search tool, as before', async () => {
    llm.script({ text: 'Hi.' });
    const { done } = await sessions.send(undefined, 'hello');
    expect(await done).toBe('done');
    const offered = toolNamesIn(llm.requests[0]!);
    expect(offered).not.toContain('find_tools');
    expect(offered).toContain('everything__get-sum');
    expect(offered).toContain('everything__echo');
  });

  it('a tool that was never loaded still takes the one call path when the model names it (approval asked)', async () => {
    await settings.setBudget({ threshold: 10_000, mode: 'on_demand' });
    llm.script({ toolCalls: [{ id: 'call_direct', name: 'everything__get-sum', args: { a: 1, b: 1 } }] }, { text: 'ok' });
    const { done } = await sessions.send(undefined, 'add');
    const approval = (await approvals.next((r) => r.kind === 'tool_call')) as ToolCallApprovalRequest;
    expect(toolNamesIn(llm.requests[0]!)).toEqual(['find_tools']);
    await broker.answer({ id: approval.id, decision: 'deny', reason: 'not now' });
    expect(await done).toBe('done');
    expect(cards('call_direct').at(-1)).toMatchObject({ state: 'denied' });
  });
});
