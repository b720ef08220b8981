import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, Conversation } from '../../src-preload/contract/chat';
import { ConversationStore, conversationsDir } from '../../src-main/core/chat/conversation-store';
import { launchHash } from '../../src-main/core/mcp/launch-hash';
import { ToolCache } from '../../src-main/core/mcp/tool-cache';
import type { CallOutcome } from './calls';
import type { Fleet } from './fleet';

export interface CoreFiles {
  toolCache: number;
  conversations: number;
  corrupted: string[];
}

/** One chat turn per round: the question, and the round's first few tool outcomes. */
export function withTurn(conversation: Conversation, round: number, results: CallOutcome[]): Conversation {
  const at = Date.now();
  const turn: ChatMessage[] = [
    { role: 'user', text: `round ${round}`, at },
    {
      role: 'tool',
      at,
      results: results.slice(0, 3).map((r, i) => ({
        callId: `${round}-${i}`,
        name: `${r.spec.server}__${r.spec.tool}`,
        server: r.spec.server,
        tool: r.spec.tool,
        args: r.spec.args,
        state: r.ok ? 'succeeded' : 'failed',
        content: [],
        textForModel: r.error ?? 'ok',
      })),
    },
  ];
  conversation.messages.push(...turn);
  conversation.updatedAt = at;
  return conversation;
}

/** Parse every tool-cache and conversation file the run left, with the core's own readers. */
export async function checkFiles(home: string, fleet: Fleet, conversations: number): Promise<CoreFiles> {
  const corrupted: string[] = [];
  const cacheDir = join(home, 'cache', 'tools');
  const cacheFiles = await readdir(cacheDir).catch(() => [] as string[]);
  for (const name of cacheFiles) {
    try {
      const parsed = JSON.parse(await readFile(join(cacheDir, name), 'utf8')) as { tools?: unknown };
      if (!Array.isArray(parsed.tools)) corrupted.push(`cache/tools/${name}: no tools array`);
    } catch (error) {
      corrupted.push(`cache/tools/${name}: ${String(error)}`);
    }
  }
  // Every server that connected has its cache entry, readable through ToolCache itself.
  const cache = new ToolCache(home);
  for (const server of fleet.servers.filter((s) => s.role !== 'fault')) {
    if (!(await cache.read(launchHash(server.config)))) corrupted.push(`tool cache of ${server.config.name}: missing or unreadable`);
  }
  const store = new ConversationStore(conversationsDir(home));
  const summaries = await store.list();
  for (const summary of summaries) {
    try {
      await store.get(summary.id);
    } catch (error) {
      corrupted.push(`conversation ${summary.id}: ${String(error)}`);
    }
  }
  const onDisk = (await readdir(conversationsDir(home)).catch(() => [] as string[])).filter((n) => n.endsWith('.json'));
  if (summaries.length !== onDisk.length || onDisk.length !== conversations) {
    corrupted.push(`conversations: ${onDisk.length} files on disk, ${summaries.length} readable, ${conversations} written`);
  }
  return { toolCache: cacheFiles.length, conversations: onDisk.length, corrupted };
}
