/** Shared setup for the chat integration tests: real server-everything over stdio, an in-process SDK server, the wire recorder. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RecordedRequest } from '../../fixtures/llm/fake-llm-server';

const everythingEntry = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');

export interface WireEntry {
  direction: 'out' | 'in';
  message: JSONRPCMessage;
}

/** Delegates to a real transport and keeps every JSON-RPC message in both directions. */
export class RecordingTransport implements Transport {
  readonly log: WireEntry[] = [];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];

  constructor(private readonly inner: Transport) {
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
    inner.onmessage = (message, extra) => {
      this.log.push({ direction: 'in', message });
      this.onmessage?.(message, extra);
    };
  }

  start(): Promise<void> {
    return this.inner.start();
  }
  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    this.log.push({ direction: 'out', message });
    return this.inner.send(message, options);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

export async function connectEverything(options: ClientOptions = {}, before?: (client: Client) => void): Promise<{ client: Client; wire: RecordingTransport }> {
  const client = new Client({ name: 'switchboard-test', version: '0.0.0' }, options);
  before?.(client);
  const wire = new RecordingTransport(new StdioClientTransport({ command: process.execPath, args: [everythingEntry, 'stdio'], stderr: 'ignore' }));
  await client.connect(wire);
  return { client, wire };
}

export async function tempHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'sb-chat-'));
  return { home, cleanup: () => rm(home, { recursive: true, force: true }) };
}

/** The tool results a model request carried, in either wire format. */
export function toolResultsIn(request: RecordedRequest): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies
  const messages: any[] = request.body.messages;
  if (request.wire === 'openai') return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  return messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result').map((b) => String(b.content));
}

/** Names of the tools a model request offered. */
export function toolNamesIn(request: RecordedRequest): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- wire bodies
  const tools: any[] = request.body.tools ?? [];
  return tools.map((t) => (request.wire === 'openai' ? t.function.name : t.name));
}

/** Events in arrival order, with a way to wait for one that has not come yet. */
export class EventLog<T> {
  readonly items: T[] = [];
  private waiters: Array<{ match: (item: T) => boolean; resolve: (item: T) => void }> = [];

  push = (item: T): void => {
    this.items.push(item);
    const ready = this.waiters.filter((w) => w.match(item));
    this.waiters = this.waiters.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(item);
  };

  /** The first item matching at or after index `from`, already logged or still to come. */
  next(match: (item: T) => boolean, from = 0): Promise<T> {
    const found = this.items.slice(from).find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }
}
