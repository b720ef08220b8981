/**
 * A tool call the server runs as a task (MCP 2025-11-25): `tools/call` with `task` creates it, then
 * `tasks/get` is asked every `pollInterval` (the server's) until the task ends, and `tasks/result`
 * brings the result. The SDK speaks every message (its `request` with `task`, and
 * `client.experimental.tasks.getTask / getTaskResult / cancelTask`); this file owns what its
 * `callToolStream` cannot do for us: resume a known task on a new session after a reconnect, send
 * `tasks/cancel` the moment the person cancels, and keep the server's reason when a task fails.
 * No per-call timeout applies to the task as a whole: each poll is a short request of its own, and
 * the server's ttl decides how long the task may live.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError, type CallToolResult, type Task, type Tool } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { CallProgress, TaskView } from '../../../src-preload/contract/tasks';
import { AppFailure } from '../app-error';
import { taskCancelledByServer, taskFailed, taskLost } from '../diagnosis/task-diagnosis';
import { requestSignal, type CancelSignal } from './call-cancel';
import { isSessionExpired } from './transport-errors';

/**
 * The server a task runs on, across its connections: a task outlives a dropped connection and is
 * asked about again on the next one (the McpServer).
 */
export interface TaskServer {
  /** The client if connected right now, without waiting (a cancel does not wait for a server that is down). */
  readyClient(): Client | undefined;
  /** Waits (bounded) while the server reconnects; throws when it does not come back. */
  connectedClient(timeoutMs: number): Promise<Client>;
  /** A streamable HTTP server forgot our session: open a new one. */
  reinitialize(): Promise<Client>;
  /** A poll found the connection gone: a remote server is marked dropped so it reconnects. */
  connectionLost(error: unknown): void;
  log(line: string): void;
}

export interface TaskCallOptions {
  /** Each request's own timeout (the server's toolTimeout), and the creating call's hard maximum. */
  timeoutMs: number;
  hardMaxMs: number;
  signal: CancelSignal;
  onProgress: (progress: CallProgress) => void;
  onTask?: (task: TaskView) => void;
}

/** A server may answer a task-augmented call with the result at once; both are accepted. */
const CreatedOrResult = z.union([CreateTaskResultSchema, CallToolResultSchema]);
/** A poll that kept failing on the connection this many times in a row ends the call. */
const MAX_LOST_POLLS = 5;
const DEFAULT_POLL_MS = 1000;
const STATUS_MESSAGE_CAP = 500;

/** The tool runs as a task when the server offers tasks for tools/call and the tool allows it (`execution.taskSupport`). */
export function runsAsTask(client: Client, tools: readonly Tool[], name: string): boolean {
  // The server's capability first: most servers run no tasks, and then no tool list is searched.
  if (client.getServerCapabilities()?.tasks?.requests?.tools?.call === undefined) return false;
  const support = tools.find((t) => t.name === name)?.execution?.taskSupport;
  return support === 'optional' || support === 'required';
}

export async function callToolAsTask(first: Client, tool: string, args: Record<string, unknown>, server: TaskServer, options: TaskCallOptions): Promise<CallToolResult> {
  const { signal } = options;
  const created = await first.request({ method: 'tools/call', params: { name: tool, arguments: args } }, CreatedOrResult, {
    task: {},
    timeout: options.timeoutMs,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: options.hardMaxMs,
    signal: requestSignal(signal),
    // The SDK keeps this handler for the task's lifetime: progress keeps arriving after the task is created.
    onprogress: options.onProgress,
  });
  const asTask = CreateTaskResultSchema.safeParse(created);
  if (!asTask.success) return CallToolResultSchema.parse(created);
  let task: Task = asTask.data.task;
  const taskId = task.taskId;
  const report = (reconnecting = false) => options.onTask?.(taskView(task, reconnecting));
  report();
  const cancelled = async () => {
    const confirmed = await cancelTask(server, taskId, options.timeoutMs);
    if (!confirmed) return;
    task = confirmed;
    report();
  };
  let client = first;
  let lostPolls = 0;
  try {
    while (task.status === 'working') {
      await sleep(task.pollInterval ?? DEFAULT_POLL_MS, signal);
      try {
        // A dropped server gets as long as a call's hard maximum to come back before the task is given up.
        client = await untilAborted(Promise.resolve(server.readyClient() ?? server.connectedClient(options.hardMaxMs)), signal);
        task = await untilAborted(client.experimental.tasks.getTask(taskId, { timeout: options.timeoutMs }), signal);
        lostPolls = 0;
        report();
      } catch (error) {
        if (signal.aborted) throw error;
        if (isSessionExpired(error)) {
          server.log(`[switchboard] the server forgot our session during task ${taskId}; re-initializing`);
          client = await server.reinitialize();
          continue;
        }
        if (!isConnectionLoss(error) || ++lostPolls > MAX_LOST_POLLS) throw lostOrFailed(error, tool, taskId, task);
        server.log(`[switchboard] lost the connection while task ${taskId} runs; asking again once the server is back`);
        server.connectionLost(error);
        report(true);
      }
    }
    const result = await untilAborted(finish(client, tool, task, options), signal);
    if (task.status === 'input_required') {
      // tasks/result answered after the person's input: show the status the task ended with.
      const ended = await client.experimental.tasks.getTask(taskId, { timeout: options.timeoutMs }).catch(() => undefined);
      if (ended) {
        task = ended;
        report();
      }
    }
    return result;
  } catch (error) {
    if (signal.aborted) await cancelled();
    throw error;
  }
}

/** A task that left "working": its result, or the reason it has none. */
async function finish(client: Client, tool: string, task: Task, limits: Pick<TaskCallOptions, 'timeoutMs' | 'hardMaxMs'>): Promise<CallToolResult> {
  const { taskId } = task;
  switch (task.status) {
    case 'completed':
      return client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout: limits.timeoutMs });
    case 'input_required':
      // tasks/result delivers the server's questions (elicitation, sampling) and answers once the task ends;
      // the person may take their time, so only the task's own lifetime bounds it.
      return client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout: task.ttl ?? limits.hardMaxMs, resetTimeoutOnProgress: true });
    case 'failed':
      // A failed task may still carry the tool's own error result; without one, its status message says why.
      try {
        const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, { timeout: limits.timeoutMs });
        return { ...result, isError: true };
      } catch {
        throw taskFailed(tool, task.statusMessage);
      }
    case 'cancelled':
      throw taskCancelledByServer(tool, task.statusMessage);
    case 'working':
      throw new Error(`task ${taskId} is still working`);
    default:
      return task.status satisfies never;
  }
}

/** tasks/cancel, so the server stops the work (not just our waiting); a failure to send it is logged, not thrown. */
async function cancelTask(server: TaskServer, taskId: string, timeoutMs: number): Promise<Task | undefined> {
  try {
    const client = server.readyClient();
    if (!client) throw new Error('the server is not connected');
    const { _meta, ...task } = await client.experimental.tasks.cancelTask(taskId, { timeout: timeoutMs });
    server.log(`[switchboard] cancelled task ${taskId} (tasks/cancel)`);
    return task;
  } catch (error) {
    server.log(`[switchboard] could not cancel task ${taskId}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** The connection, not the server, failed: the task may well live on and be asked about again. */
function isConnectionLoss(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  // Our own failures (the server did not come back in time) end the call; anything else is the transport's.
  return !(error instanceof AppFailure);
}

function lostOrFailed(error: unknown, tool: string, taskId: string, task: Task): unknown {
  // tasks/get refused: the server no longer knows the task (restarted, or past its ttl).
  if (error instanceof McpError && error.code === ErrorCode.InvalidParams) return taskLost(tool, taskId, task.ttl);
  return error;
}

export function taskView(task: Task, reconnecting = false): TaskView {
  const message = task.statusMessage;
  return {
    taskId: task.taskId,
    status: task.status,
    ...(message !== undefined ? { statusMessage: message.length > STATUS_MESSAGE_CAP ? `${message.slice(0, STATUS_MESSAGE_CAP)}…` : message } : {}),
    ...(task.pollInterval !== undefined ? { pollIntervalMs: task.pollInterval } : {}),
    ttlMs: task.ttl,
    ...(reconnecting ? { reconnecting } : {}),
  };
}

function sleep(ms: number, signal: CancelSignal): Promise<void> {
  return untilAborted(new Promise<void>((done) => setTimeout(done, ms)), signal);
}

/** Settles with `promise`, or rejects with the abort reason the moment the signal fires. */
function untilAborted<T>(promise: Promise<T>, signal: CancelSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
