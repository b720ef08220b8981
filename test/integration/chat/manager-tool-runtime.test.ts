import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalBroker, type BrokerEvent } from '../../../src-main/core/approvals/approval-broker';
import { ApprovalStore, approvalsFile } from '../../../src-main/core/approvals/approval-store';
import { ChatSessions } from '../../../src-main/core/chat/chat-session';
import { ConversationStore, conversationsDir } from '../../../src-main/core/chat/conversation-store';
import { managerToolRuntime } from '../../../src-main/core/chat/manager-tool-runtime';
import { OpenAiCompatibleProvider } from '../../../src-main/core/chat/providers/openai-provider';
import { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { EventLog, tempHome, toolResultsIn } from './chat-test-kit';

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
const quiet = { info() {}, warn() {}, error() {} };

let home: { home: string; cleanup: () => Promise<void> };
let manager: McpManager;
let llm: FakeLlmServer;

beforeAll(async () => {
  home = await tempHome();
  llm = await startFakeLlmServer();
  manager = new McpManager({ home: home.home, logger: quiet, loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 });
  await manager.apply([
    {
      kind: 'stdio',
      name: 'everything',
      command: process.execPath,
      args: [everything, 'stdio'],
      env: {},
      enabled: true,
      timeout: 20,
      toolTimeout: 20,
      approval: 'ask',
      source: { path: `${home.home}/servers.json`, origin: 'switchboard', userWritten: true },
    },
  ]);
  await manager.settled(20_000);
});
afterAll(async () => {
  await manager.stop();
  await llm.close();
  await home.cleanup();
});

describe('managerToolRuntime over the MCP manager', () => {
  it('offers the enabled catalog tools and runs an approved call through the manager', async () => {
    const runtime = managerToolRuntime(manager);
    expect(runtime.listTools().find((t) => t.name === 'everything__echo')).toMatchObject({ server: 'everything', tool: 'echo', description: 'Echoes back the input string' });

    const approvals = new EventLog<BrokerEvent>();
    const broker = new ApprovalBroker({ store: new ApprovalStore(approvalsFile(home.home)), settings: () => ({ rules: [], autoAllowReadOnly: false, serverApproval: () => 'ask' }), emit: approvals.push });
    const sessions = new ChatSessions({
      store: new ConversationStore(conversationsDir(home.home)),
      broker,
      tools: runtime,
      provider: async () => new OpenAiCompatibleProvider({ apiKey: 'k', model: 'fake', baseUrl: llm.openAiBaseUrl }),
      emit: () => undefined,
    });
    llm.script({ toolCalls: [{ id: 'm1', name: 'everything__echo', args: { message: 'through the manager' } }] }, { text: 'ok' });
    const { done } = await sessions.send(undefined, 'echo');
    const asked = await approvals.next((e) => e.name === 'approvalRequested');
    await broker.answer({ id: asked.payload.id, decision: 'allow_once' });
    expect(await done).toBe('done');
    expect(toolResultsIn(llm.requests.at(-1)!)).toEqual(['Echo: through the manager']);
  });

  it('leaves disabled tools out of what the model is offered', async () => {
    await manager.setToolEnabled('everything__get-env', false);
    expect(managerToolRuntime(manager).listTools().map((t) => t.name)).not.toContain('everything__get-env');
    await manager.setToolEnabled('everything__get-env', true);
    expect(managerToolRuntime(manager).listTools().map((t) => t.name)).toContain('everything__get-env');
  });
});
