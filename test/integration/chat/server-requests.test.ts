import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src-main/core/approvals/approval-broker';
import { ApprovalStore, approvalsFile } from '../../../src-main/core/approvals/approval-store';
import { OpenAiCompatibleProvider } from '../../../src-main/core/chat/providers/openai-provider';
import { registerServerRequestHandlers, SERVER_REQUEST_CAPABILITIES, type ServerRequestDeps } from '../../../src-main/core/chat/server-requests';
import type { ApprovalRequest, ApprovalSettled, ElicitationApprovalRequest, SamplingApprovalRequest, SamplingResultApprovalRequest } from '../../../src-preload/contract/chat';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { connectEverything, EventLog, tempHome } from './chat-test-kit';

let llm: FakeLlmServer;
let home: { home: string; cleanup: () => Promise<void> };
let client: Client;
let approvals: EventLog<ApprovalRequest>;
let settled: EventLog<ApprovalSettled>;
let opened: string[];
let deps: ServerRequestDeps;

beforeAll(async () => {
  llm = await startFakeLlmServer();
  home = await tempHome();
  const broker = new ApprovalBroker({
    store: new ApprovalStore(approvalsFile(home.home)),
    settings: () => ({ rules: [], autoAllowReadOnly: false, serverApproval: () => 'ask' }),
    emit: (e) => (e.name === 'approvalRequested' ? approvals.push(e.payload) : settled.push(e.payload)),
  });
  deps = {
    broker,
    // The system browser cannot run here; this opener records what the app would have opened.
    opener: { open: async (url) => void opened.push(url) },
    sampler: async () => new OpenAiCompatibleProvider({ apiKey: 'k', model: 'fake-model', baseUrl: llm.openAiBaseUrl }),
    timeoutMs: 60_000,
  };
  ({ client } = await connectEverything({ capabilities: SERVER_REQUEST_CAPABILITIES }, (c) => registerServerRequestHandlers(c, 'everything', deps)));
});
afterAll(async () => {
  await client.close();
  await llm.close();
  await home.cleanup();
});
beforeEach(() => {
  approvals = new EventLog();
  settled = new EventLog();
  opened = [];
  deps.timeoutMs = 60_000;
});
afterEach(() => {
  expect(deps.broker.pendingRequests()).toEqual([]);
});

const call = (name: string, args: Record<string, unknown> = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>;
const texts = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('\n');

describe('elicitation from server-everything', () => {
  it('shows the form schema with its defaults as data, validates the answer, and returns it', async () => {
    const result = call('trigger-elicitation-request');
    const request = (await approvals.next((r) => r.kind === 'elicitation')) as Extract<ElicitationApprovalRequest, { mode: 'form' }>;
    expect(request).toMatchObject({ mode: 'form', server: 'everything', message: 'Please provide inputs for the following fields:', timeoutMs: 60_000 });
    expect(request.defaults).toMatchObject({ firstLine: 'It was a dark and stormy night.', integer: 42, number: 3.14 });
    expect(request.requestedSchema).toMatchObject({ required: ['name'] });
    await expect(deps.broker.answer({ id: request.id, decision: 'accept', content: { name: 'Ada', email: 'not an email' } })).rejects.toThrow(
      'the form answer does not match what "everything" asked for: data/email must match format "email"',
    );
    await deps.broker.answer({ id: request.id, decision: 'accept', content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } });
    const text = texts(await result);
    expect(text).toContain('- Name: Ada Lovelace');
    expect(text).toContain('- Email: ada@example.com');
    expect(text).toContain('- Favorite Integer: 42');
  });

  it('declines', async () => {
    const result = call('trigger-elicitation-request');
    const request = await approvals.next((r) => r.kind === 'elicitation');
    await deps.broker.answer({ id: request.id, decision: 'decline' });
    expect(texts(await result)).toContain('User declined to provide the requested information.');
  });

  it('cancels when the user does not answer in time', async () => {
    deps.timeoutMs = 20;
    const result = await call('trigger-elicitation-request');
    expect(texts(result)).toContain('User cancelled the elicitation dialog.');
    expect(settled.items.map((s) => s.outcome)).toEqual(['timed_out']);
  });

  it('opens an accepted https URL through the opener', async () => {
    const result = call('trigger-url-elicitation', { url: 'https://example.com/verify?step=1', message: 'Verify your account' });
    const request = await approvals.next((r) => r.kind === 'elicitation');
    expect(request).toMatchObject({ mode: 'url', url: 'https://example.com/verify?step=1', urlCheck: { ok: true }, message: 'Verify your account' });
    await deps.broker.answer({ id: request.id, decision: 'accept' });
    expect(texts(await result)).toContain('User completed the URL elicitation flow.');
    expect(opened).toEqual(['https://example.com/verify?step=1']);
  });

  it('refuses to accept a URL that fails the O8 check, and never opens it', async () => {
    const result = call('trigger-url-elicitation', { url: 'file:///etc/passwd' });
    const request = await approvals.next((r) => r.kind === 'elicitation');
    expect(request).toMatchObject({ mode: 'url', urlCheck: { ok: false, reason: 'the scheme "file" is not allowed (only https, or http to loopback)' } });
    await expect(deps.broker.answer({ id: request.id, decision: 'accept' })).rejects.toThrow(
      'the URL in this request was refused (the scheme "file" is not allowed (only https, or http to loopback)); answer decline or cancel',
    );
    await deps.broker.answer({ id: request.id, decision: 'decline' });
    expect(texts(await result)).toContain('User declined to open the URL');
    expect(opened).toEqual([]);
  });
});

describe('sampling from server-everything', () => {
  it('sends the user-edited messages to the model only after approval, and returns its answer', async () => {
    llm.script({ text: 'A short sampled answer.' });
    const before = llm.requests.length;
    const result = call('trigger-sampling-request', { prompt: 'tell me a secret', maxTokens: 50 });
    const request = (await approvals.next((r) => r.kind === 'sampling')) as SamplingApprovalRequest;
    expect(request).toMatchObject({
      server: 'everything',
      messages: [{ role: 'user', text: 'Resource trigger-sampling-request context: tell me a secret' }],
      systemPrompt: 'You are a helpful test server.',
      maxTokens: 50,
      omittedParts: 0,
    });
    expect(llm.requests.length).toBe(before);
    await deps.broker.answer({ id: request.id, decision: 'approve', editedMessages: [{ role: 'user', text: 'tell me a joke instead' }] });
    // The model has answered, but the server hears nothing until the person has seen the answer.
    const review = (await approvals.next((r) => r.kind === 'sampling_result')) as SamplingResultApprovalRequest;
    expect(review).toMatchObject({ server: 'everything', text: 'A short sampled answer.', model: expect.stringContaining('fake-model'), stopReason: 'endTurn', timeoutMs: 60_000 });
    await deps.broker.answer({ id: review.id, decision: 'approve' });
    const text = texts(await result);
    expect(text).toContain('A short sampled answer.');
    expect(llm.requests.at(-1)!.body).toMatchObject({
      max_tokens: 50,
      messages: [
        { role: 'system', content: 'You are a helpful test server.' },
        { role: 'user', content: 'tell me a joke instead' },
      ],
    });
  });

  it("sends back the answer as the person edited it, and holds the call until then", async () => {
    llm.script({ text: 'The model said something the person wants to change.' });
    const result = call('trigger-sampling-request', { prompt: 'p' });
    const request = await approvals.next((r) => r.kind === 'sampling');
    await deps.broker.answer({ id: request.id, decision: 'approve' });
    const review = await approvals.next((r) => r.kind === 'sampling_result');
    let finished = false;
    void result.then(() => (finished = true));
    await new Promise((done) => setTimeout(done, 300));
    expect(finished).toBe(false);
    await deps.broker.answer({ id: review.id, decision: 'approve', editedText: 'A reviewed answer.' });
    const text = texts(await result);
    expect(text).toContain('A reviewed answer.');
    expect(text).not.toContain('wants to change');
  });

  it("keeps the model's answer from the server when the person says so; the server gets the rejection", async () => {
    llm.script({ text: 'Something private the model wrote.' });
    const result = call('trigger-sampling-request', { prompt: 'p' });
    const request = await approvals.next((r) => r.kind === 'sampling');
    await deps.broker.answer({ id: request.id, decision: 'approve' });
    const review = await approvals.next((r) => r.kind === 'sampling_result');
    await expect(deps.broker.answer({ id: review.id, decision: 'accept' })).rejects.toThrow('decision "accept" does not apply to a sampling completion (expected approve, decline)');
    await deps.broker.answer({ id: review.id, decision: 'decline', reason: 'too private' });
    const outcome = await result;
    expect(outcome.isError).toBe(true);
    expect(texts(outcome)).toContain("the user did not let the model's answer go back to the server: too private");
    expect(texts(outcome)).not.toContain('Something private');
  });

  it('never reaches the model when declined, and the server gets the rejection', async () => {
    const before = llm.requests.length;
    const result = call('trigger-sampling-request', { prompt: 'p' });
    const request = await approvals.next((r) => r.kind === 'sampling');
    await deps.broker.answer({ id: request.id, decision: 'decline', reason: 'not now' });
    const outcome = await result;
    expect(outcome.isError).toBe(true);
    expect(texts(outcome)).toContain('the user declined the sampling request: not now');
    expect(llm.requests.length).toBe(before);
  });
});
