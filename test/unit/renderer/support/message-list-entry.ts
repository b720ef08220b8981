import { mount } from 'svelte';
import type { ChatRow } from '../../../../src-renderer/lib/chat/chat-rows';
import '../../../../src-renderer/styles/global.css';
import MessageListHarness from './MessageListHarness.svelte';

/** A long conversation with varied rows: short and long text, code, tool cards with results. */
export function syntheticRows(count: number): ChatRow[] {
  return Array.from({ length: count }, (_, i): ChatRow => {
    if (i % 2 === 0) return { key: `m${i}`, kind: 'user', text: `Question ${i}: ${'why '.repeat(i % 23)}?` };
    const calls =
      i % 10 === 1
        ? [{ callId: `c${i}`, name: 'everything__echo', server: 'everything', tool: 'echo', args: { message: `m${i}` }, state: 'succeeded' as const, elapsedMs: 12, result: { content: [{ type: 'text' as const, text: `Echo: ${'x'.repeat(i % 700)}` }], truncatedChars: 0 } }]
        : [];
    const text = i % 6 === 3 ? `Here is code for ${i}:\n\n\`\`\`ts\nconst a = ${i};\nconsole.log(a);\n\`\`\`\n\nand **bold** text.` : `Answer ${i}. ${'Lorem ipsum dolor sit amet. '.repeat(i % 17)}`;
    return { key: `m${i}`, kind: 'assistant', text, calls, streaming: false };
  });
}

const count = Number(new URLSearchParams(location.search).get('rows') ?? '5000');
const harness = mount(MessageListHarness, { target: document.getElementById('app')!, props: { initial: syntheticRows(count) } });
Object.assign(window, { harness });
