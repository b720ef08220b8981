import { describe, expect, it } from 'vitest';
import { LogNotices } from '../../../src-main/core/mcp/log-notices';

describe('LogNotices', () => {
  it('tells the first line at once, then a flood once more when its window ends, per server', async () => {
    const notices = new LogNotices(30);
    const told: string[] = [];
    notices.on((server) => told.push(server));
    notices.grew('a');
    expect(told).toEqual(['a']);
    for (let i = 0; i < 500; i++) notices.grew('a');
    notices.grew('b');
    expect(told).toEqual(['a', 'b']);
    await expect.poll(() => told.filter((s) => s === 'a').length).toBe(2);
    // Nothing more came in the window that trailing notice opened: no third one.
    await expect.poll(() => (notices as unknown as { windows: Map<string, unknown> }).windows.size).toBe(0);
    expect(told.filter((s) => s === 'a').length).toBe(2);
  });

  it('tells no one and keeps no window while no one listens', () => {
    const notices = new LogNotices(30);
    notices.grew('a');
    const told: string[] = [];
    notices.on((server) => told.push(server));
    notices.grew('a');
    expect(told).toEqual(['a']);
  });
});
