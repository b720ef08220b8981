/**
 * One connection attempt (ServerSession): once disposed, nothing it set up reaches its server again —
 * not the client's close, not an attempt still opening. The server never has to ask which connection
 * a callback came from.
 */
import { describe, expect, it } from 'vitest';
import { LineRing } from '../../../src-main/core/mcp/line-ring';
import { realScheduler, ServerSession, type SessionEvents } from '../../../src-main/core/mcp/server-session';
import { fixture, stdio } from './helpers';

function recorded(): { events: SessionEvents; heard: string[] } {
  const heard: string[] = [];
  const events: SessionEvents = {
    state: (state) => heard.push(`state ${state.kind}`),
    failed: (failure) => heard.push(`failed ${failure.reason}`),
    opened: () => heard.push('opened'),
    listed: (list) => heard.push(`listed ${list}`),
    changed: () => heard.push('changed'),
    resourceUpdated: (uri) => heard.push(`resourceUpdated ${uri}`),
    closed: (end) => heard.push(`closed ${end.kind}`),
  };
  return { events, heard };
}

const deps = { scheduler: realScheduler, loginPath: async () => process.env.PATH ?? '', maxLineBytes: 1 << 20, stopGraceMs: 500, pingIntervalMs: 30_000, roots: () => [] };
const toolbox = stdio('box', [fixture('toolbox.mjs'), '--name', 'box']);

describe('a server session', () => {
  it('reports a crash of its connection as closed, with the sequence number it was made with', async () => {
    const { events, heard } = recorded();
    const session = new ServerSession(7, toolbox, new LineRing(10), deps, events);
    await session.start();
    expect(heard.at(-1)).toBe('state connected');
    expect(session.route()).toMatchObject({ transport: 'stdio', connection: 7 });
    await session.client!.callTool({ name: 'die', arguments: {} }).catch(() => {});
    await expect.poll(() => heard.at(-1)).toBe('closed dropped');
    await session.dispose();
  });

  it('once disposed, its client closing is not reported', async () => {
    const { events, heard } = recorded();
    const session = new ServerSession(1, toolbox, new LineRing(10), deps, events);
    await session.start();
    const before = [...heard];
    await session.dispose();
    expect(session.client).toBeUndefined();
    expect(heard).toEqual(before);
  });

  it('disposed while it opens, it never reports the connection it was opening', async () => {
    const { events, heard } = recorded();
    const session = new ServerSession(1, toolbox, new LineRing(10), deps, events);
    const starting = session.start();
    await expect.poll(() => heard).toContain('state connecting');
    await session.dispose();
    await starting;
    expect(heard).toEqual(['state connecting']);
    expect(session.client).toBeUndefined();
  });
});
