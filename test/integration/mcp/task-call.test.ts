import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskView } from '../../../src-preload/contract/tasks';
import { AppFailure } from '../../../src-main/core/app-error';
import type { ToolResult } from '../../../src-main/core/mcp/call-result';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { startTaskHttpFixture, type TaskHttpFixture } from '../../fixtures/servers/task-http';
import { callByName, EVERYTHING, fixture, is, manager, remote, stdio, tempHome, waitForState } from './helpers';

const textOf = (r: ToolResult) => r.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('');

let home: string;
let cleanup: () => Promise<void>;
let m: McpManager | undefined;
let server: TaskHttpFixture | undefined;
beforeEach(async () => ({ home, cleanup } = await tempHome()));
afterEach(async () => {
  await m?.stop();
  await server?.close();
  m = undefined;
  server = undefined;
  await cleanup();
});

/** A manager with the HTTP task server connected as "tasks". */
async function connectTasks(config: Parameters<typeof remote>[2] = {}, deps: Parameters<typeof manager>[1] = {}) {
  server = await startTaskHttpFixture();
  m = manager(home, deps);
  await m.apply([remote('tasks', server.url, config)]);
  await waitForState(m, 'tasks', is('connected'));
  return { m, server };
}

function recorder() {
  const tasks: TaskView[] = [];
  const progress: { progress: number; total?: number; message?: string }[] = [];
  return { tasks, progress, options: { onTask: (t: TaskView) => tasks.push(t), onProgress: (p: (typeof progress)[number]) => progress.push(p) } };
}

describe('tool calls run as MCP tasks', () => {
  it('creates a task, reports each status and progress, and returns the result', async () => {
    const { m } = await connectTasks();
    const seen = recorder();
    const result = await callByName(m, 'tasks__slow-task', { ms: 800, steps: 4 }, seen.options);
    expect(textOf(result)).toBe('finished after 800 ms');
    const ids = new Set(seen.tasks.map((t) => t.taskId));
    expect(ids.size).toBe(1);
    expect(seen.tasks[0]).toMatchObject({ status: 'working', pollIntervalMs: 100, ttlMs: 60_000 });
    expect(seen.tasks.at(-1)?.status).toBe('completed');
    // Polling samples the statuses: some may pass unseen, but those seen come in the server's order.
    const steps = seen.tasks.map((t) => t.statusMessage).filter((m) => m !== undefined).map((m) => Number(/^step (\d) of 4$/.exec(m)![1]));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps).toEqual([...steps].sort());
    // Over HTTP progress comes on the SSE stream, task answers on POST replies: the last may trail the result.
    for (let i = 0; i < 100 && seen.progress.length < 4; i++) await new Promise((d) => setTimeout(d, 20));
    expect(seen.progress.map((p) => p.progress)).toEqual([1, 2, 3, 4]);
    expect(seen.progress[0]).toEqual({ progress: 1, total: 4, message: 'step 1 of 4' });
  });

  it('keeps a task alive past the per-call timeout and the hard maximum while the server says it is working', async () => {
    const { m } = await connectTasks({ toolTimeout: 1 }, { callHardMaxMs: 1500 });
    const seen = recorder();
    const started = Date.now();
    const result = await callByName(m, 'tasks__slow-task', { ms: 3000, steps: 3 }, seen.options);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    expect(textOf(result)).toBe('finished after 3000 ms');
    expect(seen.tasks.at(-1)?.status).toBe('completed');
  });

  it('sends tasks/cancel when the caller cancels, and the server stops the task', async () => {
    const { m, server } = await connectTasks();
    const seen = recorder();
    const controller = new AbortController();
    const call = callByName(m, 'tasks__slow-task', { ms: 5000, steps: 50 }, { ...seen.options, controller });
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    controller.abort('cancelled by the user');
    await expect(call).rejects.toThrow('tool "slow-task" on server "tasks" was cancelled');
    const taskId = seen.tasks[0]!.taskId;
    expect(server.cancels).toEqual([taskId]);
    expect(seen.tasks.at(-1)).toMatchObject({ taskId, status: 'cancelled' });
    expect(m.logs('tasks')).toContain(`[switchboard] cancelled task ${taskId} (tasks/cancel)`);
  });

  it('resumes a task after the connection is restarted mid-task, and the result still arrives', async () => {
    const { m, server } = await connectTasks();
    const seen = recorder();
    const call = callByName(m, 'tasks__slow-task', { ms: 1500, steps: 5 }, seen.options);
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    await m.reconnect('tasks');
    const result = await call;
    expect(textOf(result)).toBe('finished after 1500 ms');
    expect(server.initializeCount()).toBe(2);
    expect(new Set(seen.tasks.map((t) => t.taskId)).size).toBe(1);
    expect(seen.tasks.at(-1)?.status).toBe('completed');
  });

  it('says the task is reconnecting while its server is unreachable, and resumes the same task once it is back', async () => {
    const { m, server } = await connectTasks({}, { backoff: { baseMs: 200, maxMs: 400 } });
    const seen = recorder();
    const call = callByName(m, 'tasks__slow-task', { ms: 2500, steps: 10 }, seen.options);
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    await server.goDown();
    for (let i = 0; i < 250 && !seen.tasks.some((t) => t.reconnecting); i++) await new Promise((d) => setTimeout(d, 20));
    expect(seen.tasks.find((t) => t.reconnecting)).toMatchObject({ status: 'working', reconnecting: true });
    await server.comeBack();
    expect(textOf(await call)).toBe('finished after 2500 ms');
    expect(new Set(seen.tasks.map((t) => t.taskId)).size).toBe(1);
    expect(seen.tasks.at(-1)).toEqual(expect.objectContaining({ status: 'completed' }));
    expect(seen.tasks.at(-1)?.reconnecting).toBeUndefined();
  });

  it('ends a cancelled task at once while its server is unreachable, and says tasks/cancel could not be sent', async () => {
    const { m, server } = await connectTasks({}, { backoff: { baseMs: 200, maxMs: 400 } });
    const seen = recorder();
    const controller = new AbortController();
    const call = callByName(m, 'tasks__slow-task', { ms: 5000, steps: 50 }, { ...seen.options, controller });
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    await server.goDown();
    for (let i = 0; i < 250 && !seen.tasks.some((t) => t.reconnecting); i++) await new Promise((d) => setTimeout(d, 20));
    const cancelledAt = Date.now();
    controller.abort('cancelled by the user');
    await expect(call).rejects.toThrow('tool "slow-task" on server "tasks" was cancelled');
    expect(Date.now() - cancelledAt).toBeLessThan(1000);
    expect(m.logs('tasks')).toContain(`[switchboard] could not cancel task ${seen.tasks[0]!.taskId}: the server is not connected`);
    expect(server.cancels).toEqual([]);
  });

  it('resumes a task on a new session when the server forgot the old one (HTTP 404)', async () => {
    const { m, server } = await connectTasks();
    const seen = recorder();
    const call = callByName(m, 'tasks__slow-task', { ms: 1000, steps: 4 }, seen.options);
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    server.forgetSessions();
    expect(textOf(await call)).toBe('finished after 1000 ms');
    expect(server.initializeCount()).toBe(2);
    expect(m.logs('tasks').some((line) => line.includes('the server forgot our session during task'))).toBe(true);
  });

  it('turns a failed task into a classed failure that carries the server\'s reason', async () => {
    const { m } = await connectTasks();
    const seen = recorder();
    const error = await callByName(m, 'tasks__failing-task', { reason: 'the disk is full' }, seen.options).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppFailure);
    expect((error as AppFailure).message).toBe('tool "failing-task" failed as a task: the disk is full');
    expect((error as AppFailure).diagnosis?.class).toBe('terminal');
    expect(seen.tasks.at(-1)).toMatchObject({ status: 'failed', statusMessage: 'the disk is full' });
  });

  it('calls a tool without task support on a task server as an ordinary call', async () => {
    const { m } = await connectTasks();
    const seen = recorder();
    expect(textOf(await callByName(m, 'tasks__plain', { message: 'hi' }, seen.options))).toBe('plain hi');
    expect(seen.tasks).toEqual([]);
  });

  it('calls tools of a server without the tasks capability exactly as before', async () => {
    m = manager(home);
    await m.apply([stdio('box', [fixture('toolbox.mjs')])]);
    await waitForState(m, 'box', is('connected'));
    const seen = recorder();
    expect(textOf(await callByName(m, 'box__sleep', { ms: 200, tick: 50 }, seen.options))).toBe('slept 200');
    expect(seen.tasks).toEqual([]);
    expect(seen.progress.length).toBeGreaterThan(0);
  });

  it('the stdio task server hears tasks/cancel too', async () => {
    m = manager(home);
    await m.apply([stdio('local', [fixture('task-tools.mjs')])]);
    await waitForState(m, 'local', is('connected'));
    const seen = recorder();
    const controller = new AbortController();
    const call = callByName(m, 'local__slow-task', { ms: 5000, steps: 50 }, { ...seen.options, controller });
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    controller.abort('cancelled by the user');
    await expect(call).rejects.toThrow('was cancelled');
    const taskId = seen.tasks[0]!.taskId;
    for (let i = 0; i < 100 && !m.logs('local').includes(`heard tasks/cancel for task ${taskId}`); i++) await new Promise((d) => setTimeout(d, 20));
    expect(m.logs('local')).toContain(`heard tasks/cancel for task ${taskId}`);
  });

  it('fails with a transient class when the server restarted and no longer knows the task', async () => {
    m = manager(home);
    await m.apply([stdio('local', [fixture('task-tools.mjs')])]);
    await waitForState(m, 'local', is('connected'));
    const seen = recorder();
    const call = callByName(m, 'local__slow-task', { ms: 5000, steps: 50 }, seen.options).catch((e: unknown) => e);
    for (let i = 0; i < 200 && seen.tasks.length < 2; i++) await new Promise((d) => setTimeout(d, 20));
    await m.reconnect('local'); // a new process: its task store starts empty
    const error = (await call) as AppFailure;
    const taskId = seen.tasks[0]!.taskId;
    expect(error).toBeInstanceOf(AppFailure);
    expect(error.message).toBe(`the server no longer knows task ${taskId} of tool "slow-task" (it restarted without keeping its tasks or its lifetime of 1 minute ran out)`);
    expect(error.diagnosis).toEqual({ class: 'transient', fix: 'run the tool again' });
  });

  it('runs server-everything\'s simulate-research-query as a task through its stages', async () => {
    m = manager(home);
    await m.apply([stdio('everything', [EVERYTHING, 'stdio'])]);
    await waitForState(m, 'everything', is('connected'));
    const seen = recorder();
    const result = await callByName(m, 'everything__simulate-research-query', { topic: 'tides' }, seen.options);
    expect(textOf(result)).toContain('# Research Report: tides');
    const messages = seen.tasks.map((t) => t.statusMessage);
    expect(messages).toContain('Gathering sources...');
    expect(messages).toContain('Generating report...');
    expect(seen.tasks.at(-1)?.status).toBe('completed');
  }, 20_000);
});
