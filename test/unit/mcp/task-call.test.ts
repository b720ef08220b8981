import { describe, expect, it } from 'vitest';
import { taskView } from '../../../src-main/core/mcp/task-call';

const task = { taskId: 't-1', status: 'working' as const, ttl: 60_000, createdAt: '2026-01-01T00:00:00Z', lastUpdatedAt: '2026-01-01T00:00:01Z' };

describe('taskView', () => {
  it("keeps the server's status, poll interval and ttl, and says when the connection is being recovered", () => {
    expect(taskView({ ...task, pollInterval: 250, statusMessage: 'step 1' })).toEqual({ taskId: 't-1', status: 'working', statusMessage: 'step 1', pollIntervalMs: 250, ttlMs: 60_000 });
    expect(taskView({ ...task, ttl: null }, true)).toEqual({ taskId: 't-1', status: 'working', ttlMs: null, reconnecting: true });
  });

  it('cuts an oversized status message from the server to 500 characters and marks the cut', () => {
    const view = taskView({ ...task, statusMessage: 'x'.repeat(10_000) });
    expect(view.statusMessage).toBe(`${'x'.repeat(500)}…`);
  });
});
