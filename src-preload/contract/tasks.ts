/**
 * A tool call the server runs as a task (MCP 2025-11-25 tasks): what the tool card and the tools
 * panel show while it runs. Main builds it from the server's `tasks/get` answers.
 */

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskView {
  taskId: string;
  status: TaskStatus;
  /** The server's own words on where the task is (data, shown as text; cut to a few hundred characters). */
  statusMessage?: string;
  /** How often Switchboard asks the server, as the server suggested (ms). */
  pollIntervalMs?: number;
  /** How long the server keeps the task after it was created (ms); null: as long as it likes. */
  ttlMs?: number | null;
  /** The connection dropped mid-task: Switchboard asks again once the server is back. */
  reconnecting?: boolean;
}

/** Progress the server reported for a call (notifications/progress). */
export interface CallProgress {
  progress: number;
  total?: number;
  message?: string;
}
