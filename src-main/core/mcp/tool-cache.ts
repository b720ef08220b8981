import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { writeFileAtomic } from '../config/atomic-file';

/** Each server's last tools/list, keyed by its launch hash, so the catalog shows at once on the next start. */
export class ToolCache {
  /** Writes still on their way to disk; stop() waits for them so nothing writes into a home being removed. */
  private readonly writing = new Set<Promise<void>>();

  constructor(private readonly home: string) {}

  private path(hash: string): string {
    return join(this.home, 'cache', 'tools', `${hash}.json`);
  }

  async read(hash: string): Promise<Tool[] | undefined> {
    try {
      const parsed = JSON.parse(await readFile(this.path(hash), 'utf8')) as { tools?: unknown };
      return Array.isArray(parsed.tools) ? (parsed.tools as Tool[]) : undefined;
    } catch {
      return undefined;
    }
  }

  async write(hash: string, tools: Tool[]): Promise<void> {
    const done = writeFileAtomic(this.path(hash), JSON.stringify({ savedAt: new Date().toISOString(), tools }));
    this.writing.add(done);
    try {
      await done;
    } finally {
      this.writing.delete(done);
    }
  }

  /** Wait for every write under way (failures are the writer's to report). */
  async settle(): Promise<void> {
    await Promise.allSettled([...this.writing]);
  }
}
