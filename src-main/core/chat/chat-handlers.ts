import type { z } from 'zod';
import type { chatInvokes } from '../../../src-preload/contract/chat';
import { AppFailure } from '../app-error';
import type { ChatService } from './chat-service';

type ChatInvokes = typeof chatInvokes;
/** One async handler per chat invoke; spread into the core's `handlers`. */
export type ChatHandlers = {
  [K in keyof ChatInvokes]: (input: z.output<ChatInvokes[K]['input']>) => Promise<ChatInvokes[K]['output']>;
};

export function createChatHandlers(chat: ChatService): ChatHandlers {
  return {
    sendMessage: async ({ conversationId, text, attachments }) => {
      const started = await chat.send(conversationId, text, attachments);
      // The turn streams as events; the invoke returns as soon as it started.
      void started.done;
      return { conversationId: started.conversationId };
    },
    retryTurn: async ({ conversationId }) => {
      const started = await chat.sessions.retry(conversationId);
      void started.done;
      return { conversationId };
    },
    beginImageUpload: async ({ size }) => ({ upload: await chat.imageUploads.begin(size) }),
    appendImageUpload: async ({ upload, offset, data }) => ({ received: await chat.imageUploads.append(upload, offset, Buffer.from(data, 'base64')) }),
    discardImageUpload: async ({ upload }) => {
      await chat.imageUploads.discard(upload);
      return null;
    },
    cancelTurn: async ({ conversationId }) => {
      chat.sessions.cancel(conversationId);
      return null;
    },
    cancelToolCall: async ({ conversationId, callId }) => {
      chat.sessions.cancelToolCall(conversationId, callId);
      return null;
    },
    answerApproval: async (answer) => {
      await chat.broker.answer(answer);
      return null;
    },
    listPendingApprovals: async () => chat.broker.pendingRequests(),
    listConversations: async () => chat.conversations.list(),
    getConversation: async ({ id }) => chat.conversations.get(id),
    renameConversation: async ({ id, title }) => {
      if (chat.sessions.isRunning(id)) throw new AppFailure('conflict', `conversation "${id}" is still answering; rename it when it is done`);
      return chat.conversations.rename(id, title, chat.now());
    },
    deleteConversation: async ({ id }) => {
      if (chat.sessions.isRunning(id)) throw new AppFailure('conflict', `conversation "${id}" is still answering; cancel it before deleting`);
      await chat.conversations.delete(id);
      return null;
    },
    getChatSettings: async () => chat.view(),
    setChatSettings: async (settings) => chat.updateSettings(settings),
    setChatApiKey: async ({ provider, key }) => chat.setApiKey(provider, key),
    probeLocalModel: async () => chat.probeLocal(),
  };
}
