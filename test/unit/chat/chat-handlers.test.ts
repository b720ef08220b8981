import { describe, expect, it } from 'vitest';
import { deferredChatHandlers, type ChatHandlers } from '../../../src-main/core/chat/chat-handlers';
import { chatInvokes } from '../../../src-preload/contract/chat';

describe('deferredChatHandlers', () => {
  it('has one handler per chat invoke and resolves the real handlers only when called', async () => {
    const box: { real?: ChatHandlers } = {};
    const deferred = deferredChatHandlers(() => box.real!);
    expect(Object.keys(deferred).sort()).toEqual(Object.keys(chatInvokes).sort());
    box.real = { listConversations: async () => [{ id: 'c1', title: 't', createdAt: 1, updatedAt: 2, messageCount: 0 }] } as unknown as ChatHandlers;
    expect(await deferred.listConversations({})).toEqual([{ id: 'c1', title: 't', createdAt: 1, updatedAt: 2, messageCount: 0 }]);
  });
});
