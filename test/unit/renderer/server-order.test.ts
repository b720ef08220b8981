import { describe, expect, it } from 'vitest';
import type { ServerView } from '../../../src-preload/contract';
import { ArrivalWatch, byName } from '../../../src-renderer/lib/servers/server-order';

const view = (name: string): ServerView => ({ name, transport: 'stdio', source: '/s.json', enabled: true, state: 'connected', toolCount: 0, shadowed: [], schemaTokens: 0, pinned: false, oauth: false });

describe('byName', () => {
  it('orders rows by name, whatever order the core lists them in (a restarted server stays in its place)', () => {
    expect(byName(['github', 'Beta', 'alpha', 'server10', 'server9'].map(view)).map((s) => s.name)).toEqual(['alpha', 'Beta', 'github', 'server9', 'server10']);
  });
});

describe('ArrivalWatch', () => {
  it('names a server that just appeared, and none on the first list or while loading', () => {
    const watch = new ArrivalWatch();
    expect(watch.next([])).toBeUndefined();
    expect(watch.next(['a', 'b'])).toBeUndefined();
    expect(watch.next(['a', 'b'])).toBeUndefined();
    expect(watch.next(['a', 'b', 'c'])).toBe('c');
    expect(watch.next(['a', 'c'])).toBeUndefined();
  });
});
