import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { mount, unmount } from 'svelte';
import '../../../../src-renderer/styles/global.css';
import ToolContent from '../../../../src-renderer/components/chat/ToolContent.svelte';

let shown: ReturnType<typeof mount> | undefined;
/** Shows a tool result's content exactly as a server sent it. */
function renderContent(content: ContentBlock[]): void {
  if (shown) void unmount(shown);
  shown = mount(ToolContent, { target: document.getElementById('app')!, props: { content } });
}
Object.assign(window, { renderContent });
