/**
 * Tool calls that run as MCP tasks, seen from both places a person meets them: the tools panel's
 * Run (runTool with a run id, toolRunUpdated, cancelToolRun) and the chat's tool card
 * (toolCallUpdated, cancelToolCall). Real core, the stdio task server fixture, the fake LLM.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, EventName, EventPayload, Result, ToolCallCard, ToolResult, ToolRunUpdate } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import type { SecretVault } from '../../../src-main/core/ports';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { EventLog, toolResultsIn } from '../chat/chat-test-kit';
import { EVERYTHING, fixture, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

const vault: SecretVault = (() => {
  const secrets = new Map<string, string>();
  return { get: async (n) => secrets.get(n), set: async (n, v) => void secrets.set(n, v), delete: async (n) => secrets.delete(n), list: async () => [...secrets.keys()] };
})();

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore;
let llm: FakeLlmServer;
let seen: EventLog<{ name: EventName; payload: EventPayload<EventName> }>;

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  llm = await startFakeLlmServer();
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { tasks: { command: 'node', args: [fixture('task-tools.mjs')], approval: 'auto' }, everything: { command: 'node', args: [EVERYTHING, 'stdio'], approval: 'auto' } } }));
  core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  seen = new EventLog();
  core.events.subscribe((name, payload) => seen.push({ name, payload }));
  await core.start();
  await waitForState(core.mcp, 'tasks', is('connected'));
  await waitForState(core.mcp, 'everything', is('connected'));
});
afterEach(async () => {
  await core.stop();
  await llm.close();
  await cleanup();
});

const runUpdates = (runId: string) => seen.items.filter((e) => e.name === 'toolRunUpdated').map((e) => e.payload as ToolRunUpdate).filter((u) => u.runId === runId);
const heardCancel = async (taskId: string) => {
  for (let i = 0; i < 100 && !core.mcp.logs('tasks').includes(`heard tasks/cancel for task ${taskId}`); i++) await new Promise((d) => setTimeout(d, 20));
  return core.mcp.logs('tasks').includes(`heard tasks/cancel for task ${taskId}`);
};

describe('the tools panel runs a task tool', () => {
  it('tells the run its task status and progress, and returns the result', async () => {
    const result = (await dispatch(core.handlers, 'runTool', { server: 'tasks', tool: 'slow-task', args: { ms: 400, steps: 2 }, runId: 'r1' })) as Result<ToolResult>;
    expect(result).toMatchObject({ ok: true, value: { content: [{ type: 'text', text: 'finished after 400 ms' }] } });
    const updates = runUpdates('r1');
    // First the approval (the run's time counts from there), then the task's own news.
    expect(updates[0]).toEqual({ runId: 'r1', approved: true });
    expect(updates[1]?.task).toMatchObject({ status: 'working' });
    expect(updates.at(-1)).toMatchObject({ task: { status: 'completed' }, progress: { progress: 2, total: 2, message: 'step 2 of 2' } });
  });

  it('cancels a running task on the server, and the run ends as cancelled', async () => {
    const running = dispatch(core.handlers, 'runTool', { server: 'tasks', tool: 'slow-task', args: { ms: 5000, steps: 50 }, runId: 'r2' }) as Promise<Result<ToolResult>>;
    const first = await seen.next((e) => e.name === 'toolRunUpdated' && (e.payload as ToolRunUpdate).task !== undefined);
    expect(await dispatch(core.handlers, 'cancelToolRun', { runId: 'r2' })).toEqual({ ok: true, value: null });
    expect(await running).toEqual({ ok: false, error: { code: 'unavailable', message: 'tool "slow-task" on server "tasks" was cancelled while it ran' } });
    const taskId = (first.payload as ToolRunUpdate).task!.taskId;
    expect(await heardCancel(taskId)).toBe(true);
    expect(runUpdates('r2').at(-1)?.task).toMatchObject({ taskId, status: 'cancelled' });
  });

  it("answers a task that needs input (server-everything's ambiguous research query): the question reaches the person, the task goes on", async () => {
    const running = dispatch(core.handlers, 'runTool', { server: 'everything', tool: 'simulate-research-query', args: { topic: 'python', ambiguous: true }, runId: 'r3' }) as Promise<Result<ToolResult>>;
    const asked = (await seen.next((e) => e.name === 'approvalRequested')).payload as ApprovalRequest;
    expect(asked).toMatchObject({ kind: 'elicitation', server: 'everything', message: 'The research query "python" could have multiple interpretations. Please clarify what you\'re looking for:' });
    expect(runUpdates('r3').map((u) => u.task?.status)).toContain('input_required');
    expect(await dispatch(core.handlers, 'answerApproval', { id: asked.id, decision: 'accept', content: { interpretation: 'snake' } })).toEqual({ ok: true, value: null });
    const result = await running;
    expect(result.ok && result.value.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('# Research Report: python (snake)') });
    expect(runUpdates('r3').at(-1)?.task?.status).toBe('completed');
  }, 30_000);

  it('refuses to cancel a run that is not running, naming it', async () => {
    expect(await dispatch(core.handlers, 'cancelToolRun', { runId: 'nope' })).toEqual({ ok: false, error: { code: 'not_found', message: 'no run "nope" is running' } });
    expect(await dispatch(core.handlers, 'cancelToolRun', { runId: '' })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'cancelToolRun: invalid payload at "runId": run id is empty' } });
  });
});

describe('the chat runs a task tool', () => {
  async function chatWith(...turns: Parameters<FakeLlmServer['script']>) {
    await dispatch(core.handlers, 'setChatSettings', { provider: 'openai-compatible', baseUrl: llm.openAiBaseUrl, model: 'fake', autoAllowReadOnly: false, rules: [] });
    llm.script(...turns);
    const sent = (await dispatch(core.handlers, 'sendMessage', { text: 'go' })) as Result<{ conversationId: string }>;
    if (!sent.ok) throw new Error(sent.error.message);
    return sent.value.conversationId;
  }
  const cards = (callId: string) => seen.items.filter((e) => e.name === 'toolCallUpdated').map((e) => e.payload as ToolCallCard).filter((c) => c.callId === callId);
  const turnOver = () => seen.next((e) => e.name === 'chatTurnState' && ['done', 'failed', 'cancelled'].includes((e.payload as { state: string }).state));

  it("shows the task's statuses on the tool card and gives the model the result", async () => {
    await chatWith({ toolCalls: [{ id: 't1', name: 'tasks__slow-task', args: { ms: 400, steps: 2 } }] }, { text: 'done' });
    await turnOver();
    const statuses = cards('t1').map((c) => `${c.state}/${c.task?.status ?? '-'}`);
    expect(statuses).toContain('running/working');
    expect(statuses.at(-1)).toBe('succeeded/completed');
    expect(cards('t1').some((c) => /^step [12] of 2$/.test(c.task?.statusMessage ?? '') && c.progress?.total === 2)).toBe(true);
    expect(toolResultsIn(llm.requests.at(-1)!)).toEqual(['finished after 400 ms']);
  });

  it('cancelling the card sends tasks/cancel and the card says cancelled', async () => {
    const conversationId = await chatWith({ toolCalls: [{ id: 't2', name: 'tasks__slow-task', args: { ms: 5000, steps: 50 } }] }, { text: 'stopped' });
    const first = await seen.next((e) => e.name === 'toolCallUpdated' && (e.payload as ToolCallCard).task !== undefined);
    expect(await dispatch(core.handlers, 'cancelToolCall', { conversationId, callId: 't2' })).toEqual({ ok: true, value: null });
    await turnOver();
    const taskId = (first.payload as ToolCallCard).task!.taskId;
    expect(await heardCancel(taskId)).toBe(true);
    expect(cards('t2').at(-1)).toMatchObject({ state: 'cancelled', task: { taskId, status: 'cancelled' } });
    expect(toolResultsIn(llm.requests.at(-1)!)).toEqual(['The user cancelled this tool call while it ran.']);
  });
});
