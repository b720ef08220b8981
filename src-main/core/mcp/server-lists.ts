import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Prompt, Resource, Tool } from '@modelcontextprotocol/sdk/types.js';

export type ListName = 'tools' | 'resources' | 'prompts';

/** A server's full lists (every page); empty for a capability the server does not declare. */
export async function fetchTools(client: Client): Promise<Tool[]> {
  if (!client.getServerCapabilities()?.tools) return [];
  return collectPages(async (cursor) => {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    return { items: page.tools, next: page.nextCursor };
  });
}

export async function fetchResources(client: Client): Promise<Resource[]> {
  if (!client.getServerCapabilities()?.resources) return [];
  return collectPages(async (cursor) => {
    const page = await client.listResources(cursor ? { cursor } : undefined);
    return { items: page.resources, next: page.nextCursor };
  });
}

export async function fetchPrompts(client: Client): Promise<Prompt[]> {
  if (!client.getServerCapabilities()?.prompts) return [];
  return collectPages(async (cursor) => {
    const page = await client.listPrompts(cursor ? { cursor } : undefined);
    return { items: page.prompts, next: page.nextCursor };
  });
}

/** Follow nextCursor to the end (bounded, so a server that loops cannot keep us here). */
async function collectPages<T>(page: (cursor?: string) => Promise<{ items: T[]; next?: string | undefined }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const { items, next } = await page(cursor);
    all.push(...items);
    if (!next || next === cursor) break;
    cursor = next;
  }
  return all;
}
