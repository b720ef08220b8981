import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BrokerEvent } from '../../../src-main/core/approvals/approval-broker';
import { createChatHandlers, type ChatHandlers } from '../../../src-main/core/chat/chat-handlers';
import { ChatService } from '../../../src-main/core/chat/chat-service';
import { composeCallPath } from '../../../src-main/core/compose';
import type { ChatEvent } from '../../../src-main/core/chat/chat-session';
import { SdkToolSource } from '../../support/sdk-tool-source';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import type { chatInvokes, ToolCallApprovalRequest } from '../../../src-preload/contract/chat';
import type { Handlers, Result } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { EventHub } from '../../../src-main/core/event-hub';
import { emitToHub } from '../../../src-main/core/chat/chat-service';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { connectEverything, EventLog, tempHome, toolResultsIn } from './chat-test-kit';

let everything: Client;
let llm: FakeLlmServer;
beforeAll(async () => {
  ({ client: everything } = await connectEverything());
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await everything.close();
  await llm.close();
});

let home: { home: string; cleanup: () => Promise<void> };
let events: EventLog<ChatEvent | BrokerEvent>;
let handlers: ChatHandlers;
// A keychain service of its own per run, so tests never touch a real "Switchboard" entry.
const vault = new KeytarVault(`Switchboard-test-${randomBytes(4).toString('hex')}`);
const hasKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';
const skipReason = hasKeychain ? '' : ' [skipped: SWITCHBOARD_TEST_KEYCHAIN is unset; run under bash test/with-keychain.sh]';

type Name = keyof typeof chatInvokes;
/** The path every call takes in both shells: known method, schema-parsed payload, handler, errors as values. */
// Only chat methods are called here, so the chat handlers stand in for the core's whole set.
const invoke = (name: Name, payload: unknown): Promise<Result<unknown>> => dispatch(handlers as unknown as Handlers, name, payload);

async function service(): Promise<ChatService> {
  // Events travel as in the app: chat -> EventHub -> whichever shell subscribed.
  const hub = new EventHub();
  hub.subscribe((name, payload) => events.push({ name, payload } as ChatEvent | BrokerEvent));
  const tools = new SdkToolSource([{ server: 'everything', client: everything }]);
  await tools.refresh();
  const logger = { info() {}, warn() {}, error() {} };
  const calls = composeCallPath({ home: home.home, logger, source: tools, emit: emitToHub(hub), serverApproval: () => 'ask' });
  const chat: ChatService = new ChatService({
    home: home.home,
    vault,
    localProbeUrl: llm.openAiBaseUrl,
    opener: { open: async () => undefined },
    logger,
    emit: emitToHub(hub),
    calls,
  });
  await chat.start();
  handlers = createChatHandlers(chat);
  return chat;
}

const settings = () => ({ provider: 'openai-compatible', baseUrl: llm.openAiBaseUrl, model: 'fake-model-small', autoAllowReadOnly: false, rules: [] });

beforeEach(async () => {
  home = await tempHome();
  events = new EventLog();
  await service();
  expect(await invoke('setChatSettings', settings())).toMatchObject({ ok: true });
});
afterEach(async () => {
  await home.cleanup();
});

const turnEnded = (conversationId: string, from = 0) =>
  events.next((e) => e.name === 'chatTurnState' && e.payload.conversationId === conversationId && ['done', 'failed', 'cancelled'].includes(e.payload.state), from);
const approval = async (from = 0) => ((await events.next((e) => e.name === 'approvalRequested', from)) as { payload: ToolCallApprovalRequest }).payload;

describe('chat handlers', () => {
  it('sendMessage -> approvalRequested -> answerApproval -> the model answer, then the conversation is listed and readable', async () => {
    llm.script({ toolCalls: [{ id: 'c1', name: 'everything__echo', args: { message: 'via handlers' } }] }, (r) => ({ text: `Got: ${toolResultsIn(r).join('')}` }));
    const sent = await invoke('sendMessage', { text: 'Echo something for me' });
    expect(sent.ok).toBe(true);
    const { conversationId } = (sent as { value: { conversationId: string } }).value;
    const request = await approval();
    expect(await invoke('listPendingApprovals', {})).toEqual({ ok: true, value: [request] });
    expect(await invoke('answerApproval', { id: request.id, decision: 'allow_once' })).toEqual({ ok: true, value: null });
    expect((await turnEnded(conversationId)).payload).toEqual({ conversationId, state: 'done' });

    // One question and one answer count as 2 messages; the tool call and its result are not counted.
    const list = await invoke('listConversations', {});
    expect(list).toMatchObject({ ok: true, value: [{ id: conversationId, title: 'Echo something for me', messageCount: 2 }] });
    const got = await invoke('getConversation', { id: conversationId });
    expect(got).toMatchObject({ ok: true, value: { messages: [{ role: 'user' }, { role: 'assistant' }, { role: 'tool' }, { role: 'assistant', text: 'Got: Echo: via handlers' }] } });
  });

  it('refuses a forged approval for an unknown id, and a second answer, with exact errors', async () => {
    llm.script({ toolCalls: [{ id: 'c1', name: 'everything__echo', args: { message: 'x' } }] }, { text: 'ok' });
    const sent = (await invoke('sendMessage', { text: 'go' })) as { value: { conversationId: string } };
    const request = await approval();
    expect(await invoke('answerApproval', { id: 'forged-id', decision: 'allow_once', editedArgs: { message: 'evil' } })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no pending approval with id "forged-id"' },
    });
    expect(await invoke('answerApproval', { id: request.id, decision: 'allow_once', extra: 'field' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await invoke('answerApproval', { id: request.id, decision: 'deny', reason: 'no' })).toEqual({ ok: true, value: null });
    expect(await invoke('answerApproval', { id: request.id, decision: 'allow_once' })).toEqual({
      ok: false,
      error: { code: 'conflict', message: `approval "${request.id}" was already answered` },
    });
    await turnEnded(sent.value.conversationId);
    expect(toolResultsIn(llm.requests.at(-1)!)).toEqual(['The user denied this tool call. Reason: no']);
  });

  it('refuses conversation ids that could escape the folder, with the exact error', async () => {
    for (const id of ['../secrets', '..%2F', 'a/b']) {
      expect(await invoke('getConversation', { id })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'getConversation: invalid payload at "id": conversation id may use only letters, digits and "-"' } });
      expect(await invoke('deleteConversation', { id })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'deleteConversation: invalid payload at "id": conversation id may use only letters, digits and "-"' } });
    }
    expect(await invoke('getConversation', { id: 'does-not-exist' })).toEqual({ ok: false, error: { code: 'not_found', message: 'no conversation with id "does-not-exist"' } });
  });

  it('renames, deletes, and resumes a conversation after a restart with its history sent to the model', async () => {
    llm.script({ text: 'First answer.' });
    const { conversationId } = ((await invoke('sendMessage', { text: 'Remember the word papaya' })) as { value: { conversationId: string } }).value;
    await turnEnded(conversationId);
    expect(await invoke('renameConversation', { id: conversationId, title: 'Fruit' })).toMatchObject({ ok: true, value: { id: conversationId, title: 'Fruit' } });

    await service(); // a restart: new stores, same data home
    expect(await invoke('listConversations', {})).toMatchObject({ ok: true, value: [{ id: conversationId, title: 'Fruit', messageCount: 2 }] });
    llm.script({ text: 'It was papaya.' });
    const from = events.items.length;
    expect(await invoke('sendMessage', { conversationId, text: 'Which word?' })).toEqual({ ok: true, value: { conversationId } });
    await turnEnded(conversationId, from);
    expect(llm.requests.at(-1)!.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['system', expect.any(String)],
      ['user', 'Remember the word papaya'],
      ['assistant', 'First answer.'],
      ['user', 'Which word?'],
    ]);

    expect(await invoke('deleteConversation', { id: conversationId })).toEqual({ ok: true, value: null });
    expect(await invoke('listConversations', {})).toEqual({ ok: true, value: [] });
    expect(await invoke('deleteConversation', { id: conversationId })).toEqual({ ok: false, error: { code: 'not_found', message: `no conversation with id "${conversationId}"` } });
  });

  it('refuses to delete or send to a conversation that is still answering, and cancels it', async () => {
    llm.script({ toolCalls: [{ id: 'c1', name: 'everything__echo', args: { message: 'x' } }] });
    const { conversationId } = ((await invoke('sendMessage', { text: 'go' })) as { value: { conversationId: string } }).value;
    await approval();
    expect(await invoke('deleteConversation', { id: conversationId })).toEqual({
      ok: false,
      error: { code: 'conflict', message: `conversation "${conversationId}" is still answering; cancel it before deleting` },
    });
    expect(await invoke('sendMessage', { conversationId, text: 'again' })).toEqual({
      ok: false,
      error: { code: 'conflict', message: `conversation "${conversationId}" is still answering; wait for it or cancel it first` },
    });
    expect(await invoke('cancelTurn', { conversationId })).toEqual({ ok: true, value: null });
    expect((await turnEnded(conversationId)).payload).toEqual({ conversationId, state: 'cancelled' });
    expect(events.items.some((e) => e.name === 'approvalSettled' && e.payload.outcome === 'cancelled')).toBe(true);
    expect(await invoke('cancelTurn', { conversationId })).toEqual({ ok: false, error: { code: 'not_found', message: `no reply is running in conversation "${conversationId}"` } });
  });

  it('gets and sets chat settings; a bad base URL is refused and the old settings stay', async () => {
    expect(await invoke('getChatSettings', {})).toMatchObject({ ok: true, value: { settings: settings(), apiKeyName: 'openai-api-key' } });
    expect(await invoke('setChatSettings', { ...settings(), baseUrl: 'http://example.com/v1' })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'base URL "http://example.com/v1" uses plain http to another computer; use https so the API key is not sent in the clear' },
    });
    expect(await invoke('getChatSettings', {})).toMatchObject({ ok: true, value: { settings: settings() } });
  });
});

describe.skipIf(!hasKeychain)(`chat handlers with API keys in the real OS keychain${skipReason}`, () => {
  afterAll(async () => {
    for (const name of await vault.list()) await vault.delete(name);
  });

  it('refuses to send without a key, says what to set and what answers locally, and creates nothing', async () => {
    const anthropic = { ...settings(), provider: 'anthropic', baseUrl: llm.url, model: 'fake-model' };
    expect(await invoke('setChatSettings', anthropic)).toMatchObject({ ok: true, value: { apiKeyConfigured: false, apiKeyName: 'anthropic-api-key' } });
    expect(await invoke('sendMessage', { text: 'hello' })).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message: `no API key for Anthropic: open Model settings (the button at the top of Chat) and store the key there (it goes to the OS keychain as "anthropic-api-key"), or use a local OpenAI-compatible server such as Ollama at http://127.0.0.1:11434/v1; probed just now: ${llm.openAiBaseUrl} answers (models: fake-model-small, fake-model-large); choose "openai-compatible" with that base URL to use it`,
      },
    });
    expect(await invoke('listConversations', {})).toEqual({ ok: true, value: [] });
  });

  it('stores the key in the keychain only: never echoed, never in the settings file or events', async () => {
    const anthropic = { ...settings(), provider: 'anthropic', baseUrl: llm.url, model: 'fake-model' };
    await invoke('setChatSettings', anthropic);
    const stored = await invoke('setChatApiKey', { provider: 'anthropic', key: 'sk-ant-secret-123' });
    expect(stored).toMatchObject({ ok: true, value: { apiKeyConfigured: true } });
    expect(JSON.stringify(stored)).not.toContain('sk-ant-secret-123');
    expect(await vault.get('anthropic-api-key')).toBe('sk-ant-secret-123');
    llm.script({ text: 'Hello from the keyed model.' });
    const { conversationId } = ((await invoke('sendMessage', { text: 'hi' })) as { value: { conversationId: string } }).value;
    expect((await turnEnded(conversationId)).payload).toEqual({ conversationId, state: 'done' });
    const sent = llm.requests.at(-1)!.headers;
    expect(sent.authorization ?? sent['x-api-key']).toMatch(/^(Bearer )?sk-ant-secret-123$/);
    const files = await Promise.all(['chat-settings.json', `conversations/${conversationId}.json`].map((f) => readFile(join(home.home, f), 'utf8')));
    for (const text of [...files, JSON.stringify(events.items)]) expect(text).not.toContain('sk-ant-secret-123');
  });
});
