import type { ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { ChatMessage, Conversation, ConversationSummary } from '../../../src-preload/contract/chat';
import { AppFailure } from '../app-error';
import type { Logger } from '../ports';
import { writeFileAtomic } from '../config/atomic-file';

const ID_PATTERN = /^[A-Za-z0-9-]{1,64}$/;
export const conversationsDir = (home: string): string => join(home, 'conversations');

/** Refuses anything but letters, digits and "-": an id is a file name, never a path. */
export function checkConversationId(id: string): string {
  if (!ID_PATTERN.test(id)) throw new AppFailure('invalid_input', `invalid conversation id ${JSON.stringify(id)}: use 1-64 letters, digits or "-"`);
  return id;
}

export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line || 'New conversation';
}

/** What a person counts as messages: theirs and the model's written replies, not tool calls and results (one question and its answer are 2). */
export function visibleMessageCount(messages: readonly ChatMessage[]): number {
  return messages.filter((m) => m.role === 'user' || (m.role === 'assistant' && m.text.trim() !== '')).length;
}

const summaryOf = (c: Conversation): ConversationSummary => ({ id: c.id, title: c.title, createdAt: c.createdAt, updatedAt: c.updatedAt, messageCount: visibleMessageCount(c.messages) });

/** One JSON file per conversation in <home>/conversations, each written whole (temp + rename). */
export class ConversationStore {
  constructor(
    private readonly dir: string,
    private readonly logger?: Logger,
  ) {}

  private file(id: string): string {
    return join(this.dir, `${checkConversationId(id)}.json`);
  }

  create(firstText: string, now: number): Conversation {
    return { id: randomUUID(), title: titleFrom(firstText), createdAt: now, updatedAt: now, messageCount: 0, messages: [] };
  }

  async save(conversation: Conversation): Promise<void> {
    const record: Conversation = { ...conversation, messageCount: visibleMessageCount(conversation.messages) };
    await writeFileAtomic(this.file(conversation.id), JSON.stringify(record, null, 1));
  }

  async get(id: string): Promise<Conversation> {
    let text: string;
    try {
      text = await readFile(this.file(id), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new AppFailure('not_found', `no conversation with id "${id}"`);
      throw error;
    }
    try {
      return parseConversation(JSON.parse(text), id);
    } catch (error) {
      throw new AppFailure('internal', `conversation file ${this.file(id)} is damaged: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Newest first. Damaged files are skipped and logged, never deleted. */
  async list(): Promise<ConversationSummary[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const summaries: ConversationSummary[] = [];
    for (const name of names) {
      const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
      if (!ID_PATTERN.test(id)) continue;
      try {
        summaries.push(summaryOf(await this.get(id)));
      } catch (error) {
        this.logger?.warn(`skipping conversation file ${name}`, { error: String(error) });
      }
    }
    return summaries.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  async rename(id: string, title: string, now: number): Promise<ConversationSummary> {
    const conversation = await this.get(id);
    const renamed = { ...conversation, title: title.trim(), updatedAt: now };
    await this.save(renamed);
    return summaryOf(renamed);
  }

  async delete(id: string): Promise<void> {
    await this.get(id);
    await rm(this.file(id));
  }
}

function parseConversation(raw: unknown, id: string): Conversation {
  if (raw === null || typeof raw !== 'object') throw new Error('not a JSON object');
  const c = raw as Partial<Conversation>;
  if (c.id !== id) throw new Error(`its id is ${JSON.stringify(c.id)}, not "${id}"`);
  if (typeof c.title !== 'string' || !Array.isArray(c.messages) || typeof c.createdAt !== 'number' || typeof c.updatedAt !== 'number') {
    throw new Error('missing title, messages or timestamps');
  }
  return { id, title: c.title, createdAt: c.createdAt, updatedAt: c.updatedAt, messageCount: visibleMessageCount(c.messages as ChatMessage[]), messages: (c.messages as ChatMessage[]).map(withStoredResults) };
}

/** Conversations saved before tool results were kept whole stored only their `content`: read it as the result it was. */
function withStoredResults(message: ChatMessage): ChatMessage {
  if (message.role !== 'tool') return message;
  return {
    ...message,
    results: message.results.map((r) => {
      const { content, ...rest } = r as typeof r & { content?: unknown };
      if (!Array.isArray(content) || r.result !== undefined) return rest;
      return content.length === 0 ? rest : { ...rest, result: { content: content as ContentBlock[], ...(r.state === 'failed' ? { isError: true } : {}), truncatedChars: 0 } };
    }),
  };
}
