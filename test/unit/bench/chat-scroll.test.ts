import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { longConversation } from '../../../bench/lib/long-conversation';
import { ConversationStore, conversationsDir } from '../../../src-main/core/chat/conversation-store';

let home: string | undefined;
afterEach(async () => {
  if (home) await rm(home, { recursive: true, force: true });
  home = undefined;
});

describe('longConversation', () => {
  it('makes exactly the asked number of messages, mixing user, assistant and tool turns', () => {
    const conversation = longConversation(5000);
    expect(conversation.messages).toHaveLength(5000);
    expect(conversation.messageCount).toBe(5000);
    const roles = new Set(conversation.messages.map((m) => m.role));
    expect([...roles].sort()).toEqual(['assistant', 'tool', 'user']);
  });

  it('is a file the real conversation store reads back whole', async () => {
    home = await mkdtemp(join(tmpdir(), 'switchboard-bench-test-'));
    const conversation = longConversation(5000);
    await mkdir(conversationsDir(home), { recursive: true });
    await writeFile(join(conversationsDir(home), `${conversation.id}.json`), JSON.stringify(conversation));
    const store = new ConversationStore(conversationsDir(home));
    const read = await store.get(conversation.id);
    expect(read.messages).toHaveLength(5000);
    expect(read.title).toBe(conversation.title);
    const written = conversation.messages.filter((m) => m.role === 'user' || (m.role === 'assistant' && m.text !== '')).length;
    expect(await store.list()).toEqual([expect.objectContaining({ id: conversation.id, messageCount: written })]);
  });
});
