import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeChat } from '../../../src-main/core/compose';
import type { StdioServerConfig } from '../../../src-main/core/config/server-config';
import { EventHub } from '../../../src-main/core/event-hub';
import { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import type { EventName, EventPayload } from '../../../src-preload/contract';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { EventLog, tempHome, toolResultsIn } from './chat-test-kit';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const quiet = { info() {}, warn() {}, error() {} };

let home: { home: string; cleanup: () => Promise<void> };
let manager: McpManager;
let llm: FakeLlmServer;
const server = (name: string, approval: 'ask' | 'auto'): StdioServerConfig => ({
  kind: 'stdio',
  name,
  command: process.execPath,
  args: [everything, 'stdio'],
  env: {},
  enabled: true,
  timeout: 20,
  toolTimeout: 20,
  approval,
  source: { path: '/tmp/servers.json', origin: 'switchboard', userWritten: true },
});

beforeAll(async () => {
  home = await tempHome();
  llm = await startFakeLlmServer();
  manager = new McpManager({ home: home.home, logger: quiet, loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 });
  await manager.apply([server('trusted', 'auto'), server('careful', 'ask')]);
  await manager.settled(20_000);
});
afterAll(async () => {
  await manager.stop();
  await llm.close();
  await home.cleanup();
});

describe('composeChat', () => {
  it("reads each server's approval setting from its config, and sends events through the core's hub", async () => {
    const events = new EventHub();
    const seen = new EventLog<{ name: EventName; payload: EventPayload<EventName> }>();
    events.subscribe((name, payload) => seen.push({ name, payload }));
    const chat = composeChat({ home: home.home, vault: new KeytarVault(`Switchboard-test-${randomBytes(4).toString('hex')}`), opener: { open: async () => undefined }, logger: quiet, events, mcp: manager });
    await chat.chat.start();
    await chat.handlers.setChatSettings({ provider: 'openai-compatible', baseUrl: llm.openAiBaseUrl, model: 'fake', autoAllowReadOnly: false, rules: [] });

    llm.script(
      {
        toolCalls: [
          { id: 'a', name: 'trusted__echo', args: { message: 'auto' } },
          { id: 'b', name: 'careful__echo', args: { message: 'asked' } },
        ],
      },
      { text: 'both ran' },
    );
    const { conversationId } = await chat.handlers.sendMessage({ text: 'echo twice' });
    const asked = await seen.next((e) => e.name === 'approvalRequested');
    expect(asked.payload).toMatchObject({ kind: 'tool_call', server: 'careful', name: 'careful__echo' });
    await chat.handlers.answerApproval({ id: (asked.payload as { id: string }).id, decision: 'allow_once' });
    await seen.next((e) => e.name === 'chatTurnState' && (e.payload as { state: string }).state === 'done');
    expect(seen.items.filter((e) => e.name === 'approvalRequested')).toHaveLength(1);
    expect(toolResultsIn(llm.requests.at(-1)!)).toEqual(['Echo: auto', 'Echo: asked']);
    expect((await chat.handlers.getConversation({ id: conversationId })).messages.at(-1)).toMatchObject({ role: 'assistant', text: 'both ran' });
  });

  it('a call ended by the hard maximum is a failure the model is told about, not a cancellation by the user', async () => {
    const toolbox = new URL('../../fixtures/servers/toolbox.mjs', import.meta.url).pathname;
    const limited = new McpManager({ home: home.home, logger: quiet, loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500, callHardMaxMs: 1500 });
    try {
      await limited.apply([{ ...server('box', 'auto'), args: [toolbox], toolTimeout: 1 }]);
      await limited.settled(20_000);
      const events = new EventHub();
      const seen = new EventLog<{ name: EventName; payload: EventPayload<EventName> }>();
      events.subscribe((name, payload) => seen.push({ name, payload }));
      const chat = composeChat({ home: home.home, vault: new KeytarVault(`Switchboard-test-${randomBytes(4).toString('hex')}`), opener: { open: async () => undefined }, logger: quiet, events, mcp: limited });
      await chat.chat.start();
      await chat.handlers.setChatSettings({ provider: 'openai-compatible', baseUrl: llm.openAiBaseUrl, model: 'fake', autoAllowReadOnly: false, rules: [] });
      llm.script({ toolCalls: [{ id: 'slow', name: 'box__sleep', args: { ms: 4000, tick: 100 } }] }, { text: 'it ran too long' });
      await chat.handlers.sendMessage({ text: 'sleep' });
      await seen.next((e) => e.name === 'chatTurnState' && (e.payload as { state: string }).state === 'done');
      expect(toolResultsIn(llm.requests.at(-1)!)).toEqual([
        'The tool failed: tool "sleep" on server "box" ran past the hard maximum of 1500 ms; cancelled. Error class: transient (a passing problem; the same request may work if retried shortly). Fix: try again with a smaller request, or raise "toolTimeout" for "box" (now 1 s): the hard maximum is 10 times it.',
      ]);
      const cards = seen.items.filter((e) => e.name === 'toolCallUpdated').map((e) => e.payload as { state: string });
      expect(cards.at(-1)?.state).toBe('failed');
      for (let i = 0; i < 100 && !limited.logs('box').includes('sleep: cancelled by the client'); i++) await new Promise((d) => setTimeout(d, 20));
      expect(limited.logs('box')).toContain('sleep: cancelled by the client');
    } finally {
      await limited.stop();
    }
  });
});
