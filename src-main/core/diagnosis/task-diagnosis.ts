/** How a tool call run as a task (MCP tasks) can end without a result, each with its class and fix. */
import { AppFailure } from '../app-error';
import { formatDuration } from '../mcp/backoff';
import { terminal, transient } from './diagnosis';

/** The task ended "failed" and the server gave no result to show; its status message is the reason. */
export function taskFailed(tool: string, statusMessage: string | undefined): AppFailure {
  return new AppFailure('internal', `tool "${tool}" failed as a task${statusMessage ? `: ${statusMessage}` : ' (the server gave no reason)'}`, terminal(`the server could not finish it; read its log and report it to its author if it repeats`));
}

/** The server cancelled the task itself (the person did not). */
export function taskCancelledByServer(tool: string, statusMessage: string | undefined): AppFailure {
  return new AppFailure('unavailable', `the server cancelled the task of tool "${tool}"${statusMessage ? `: ${statusMessage}` : ''}`, transient('run it again; if the server keeps cancelling it, read its log'));
}

/** tasks/get no longer finds the task: the server restarted without keeping its tasks, or the task outlived its ttl. */
export function taskLost(tool: string, taskId: string, ttlMs: number | null): AppFailure {
  const ttl = ttlMs === null ? '' : ` or its lifetime of ${formatDuration(ttlMs)} ran out`;
  return new AppFailure('unavailable', `the server no longer knows task ${taskId} of tool "${tool}" (it restarted without keeping its tasks${ttl})`, transient('run the tool again'));
}
