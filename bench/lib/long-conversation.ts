import type { ChatMessage, Conversation } from '../../src-preload/contract/chat';

// The chat figure's conversation, in a module of its own so a unit test can build one without
// loading (and building) the shipped core.
export const CONVERSATION_ID = 'bench-5000-messages';
export const TITLE = 'Bench: 5,000 messages';

/** A long, mixed conversation: questions, markdown answers with code, tool calls and their results. */
export function longConversation(count: number, now = Date.UTC(2026, 0, 1)): Conversation {
  const messages: ChatMessage[] = [];
  for (let i = 0; messages.length < count; i++) {
    const at = now + i * 1000;
    messages.push({ role: 'user', text: `Question ${i}: what does server ${i % 7} say about item ${i}?`, at });
    if (messages.length >= count) break;
    const callId = `call-${i}`;
    const wantsTool = i % 3 === 0;
    messages.push({
      role: 'assistant',
      text: `Here is what I found for **item ${i}**:\n\n- first point about ${i}\n- second point\n\n\`\`\`json\n{ "item": ${i}, "ok": true }\n\`\`\`\n\nMore text follows so the row wraps over a few lines in a normal window width, like a real answer would.`,
      toolCalls: wantsTool ? [{ id: callId, name: 'everything__echo', args: { message: `item ${i}` } }] : [],
      at: at + 1,
    });
    if (wantsTool && messages.length < count) {
      messages.push({
        role: 'tool',
        at: at + 2,
        results: [{ callId, name: 'everything__echo', server: 'everything', tool: 'echo', args: { message: `item ${i}` }, state: 'succeeded', result: { content: [{ type: 'text', text: `Echo: item ${i}` }], truncatedChars: 0 }, textForModel: `Echo: item ${i}` }],
      });
    }
  }
  return { id: CONVERSATION_ID, title: TITLE, createdAt: now, updatedAt: now + count * 1000, messageCount: messages.length, messages };
}
