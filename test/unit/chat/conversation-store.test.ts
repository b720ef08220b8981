import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationStore, conversationsDir, titleFrom } from '../../../src-main/core/chat/conversation-store';

let home: string;
let store: ConversationStore;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-conv-'));
  store = new ConversationStore(conversationsDir(home));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

async function saved(text: string, at: number) {
  const c = store.create(text, at);
  c.messages.push({ role: 'user', text, at });
  c.updatedAt = at;
  await store.save(c);
  return c;
}

describe('ConversationStore', () => {
  it('round-trips a conversation through one JSON file, and a new store (restart) reads it back', async () => {
    const c = await saved('What is 2+3?', 100);
    c.messages.push({ role: 'assistant', text: '5', toolCalls: [], at: 101 });
    await store.save(c);
    expect(await readdir(conversationsDir(home))).toEqual([`${c.id}.json`]);
    const restarted = new ConversationStore(conversationsDir(home));
    expect(await restarted.get(c.id)).toEqual({ ...c, messageCount: 2 });
  });

  it('keeps a tool result whole with why it ran and how long, and reads an older file that stored only content', async () => {
    const c = await saved('echo', 100);
    const result = { content: [{ type: 'text' as const, text: 'Echo: hi' }], structuredContent: { n: 1 }, _meta: { ui: 'x' }, truncatedChars: 0 };
    c.messages.push({ role: 'tool', results: [{ callId: 'c1', name: 'e__echo', args: {}, state: 'succeeded', result, because: 'you allowed it once', elapsedMs: 42, textForModel: 'Echo: hi' }], at: 101 });
    await store.save(c);
    expect((await new ConversationStore(conversationsDir(home)).get(c.id)).messages[1]).toEqual(c.messages[1]);

    const old = { id: 'old-1', title: 'old', createdAt: 1, updatedAt: 2, messages: [{ role: 'tool', at: 2, results: [
      { callId: 'a', name: 'e__echo', args: {}, state: 'succeeded', content: [{ type: 'text', text: 'Echo: old' }], textForModel: 'Echo: old' },
      { callId: 'b', name: 'e__echo', args: {}, state: 'denied', content: [], textForModel: 'denied' },
    ] }] };
    await writeFile(join(conversationsDir(home), 'old-1.json'), JSON.stringify(old));
    expect((await store.get('old-1')).messages[0]).toEqual({ role: 'tool', at: 2, results: [
      { callId: 'a', name: 'e__echo', args: {}, state: 'succeeded', result: { content: [{ type: 'text', text: 'Echo: old' }], truncatedChars: 0 }, textForModel: 'Echo: old' },
      { callId: 'b', name: 'e__echo', args: {}, state: 'denied', textForModel: 'denied' },
    ] });
  });

  it('lists newest first, renames and deletes', async () => {
    const older = await saved('first', 100);
    const newer = await saved('second', 200);
    expect((await store.list()).map((s) => s.title)).toEqual(['second', 'first']);
    expect(await store.rename(older.id, '  Renamed  ', 300)).toEqual({ id: older.id, title: 'Renamed', createdAt: 100, updatedAt: 300, messageCount: 1 });
    expect((await store.list()).map((s) => s.title)).toEqual(['Renamed', 'second']);
    await store.delete(newer.id);
    expect((await store.list()).map((s) => s.id)).toEqual([older.id]);
    await expect(store.delete(newer.id)).rejects.toThrow(`no conversation with id "${newer.id}"`);
  });

  it.each(['../../etc/passwd', '..', 'a/b', 'a\\b', '', 'x'.repeat(65), 'id.json'])('refuses the id %j and touches no file', async (id) => {
    const keep = await saved('keep me', 1);
    const message = `invalid conversation id ${JSON.stringify(id)}: use 1-64 letters, digits or "-"`;
    await expect(store.get(id)).rejects.toThrow(message);
    await expect(store.delete(id)).rejects.toThrow(message);
    await expect(store.rename(id, 't', 2)).rejects.toThrow(message);
    await expect(store.save({ ...keep, id })).rejects.toThrow(message);
    expect(await readdir(conversationsDir(home))).toEqual([`${keep.id}.json`]);
    expect((await store.get(keep.id)).title).toBe('keep me');
  });

  it('skips a damaged file in the list but keeps it on disk and names it on get', async () => {
    const good = await saved('good', 5);
    await mkdir(conversationsDir(home), { recursive: true });
    await writeFile(join(conversationsDir(home), 'broken-1.json'), '{"id": "broken-1", "title": ');
    expect((await store.list()).map((s) => s.id)).toEqual([good.id]);
    await expect(store.get('broken-1')).rejects.toThrow(`conversation file ${join(conversationsDir(home), 'broken-1.json')} is damaged:`);
    expect(await readFile(join(conversationsDir(home), 'broken-1.json'), 'utf8')).toBe('{"id": "broken-1", "title": ');
  });

  it('titles a conversation from the first line of its first message', () => {
    expect(titleFrom('  Plan my trip\nto Rome  ')).toBe('Plan my trip');
    expect(titleFrom('x'.repeat(80))).toBe(`${'x'.repeat(59)}…`);
  });
});
