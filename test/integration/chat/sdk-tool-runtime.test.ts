import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SdkToolRuntime } from '../../../src-main/core/chat/sdk-tool-runtime';
import { namespacedToolName, type ToolProgress } from '../../../src-main/core/chat/tool-runtime';
import { connectEverything } from './chat-test-kit';

let client: Client;
let runtime: SdkToolRuntime;
beforeAll(async () => {
  ({ client } = await connectEverything());
  runtime = new SdkToolRuntime([{ server: 'everything', client }]);
  await runtime.refresh();
});
afterAll(async () => {
  await client.close();
});

describe('SdkToolRuntime over server-everything', () => {
  it('lists every tool namespaced by its server, with description, schema and annotations', () => {
    const tools = runtime.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'everything__trigger-long-running-operation']));
    expect(tools.every((t) => t.server === 'everything' && t.name === `everything__${t.tool}`)).toBe(true);
    expect(tools.find((t) => t.tool === 'trigger-long-running-operation')).toMatchObject({
      description: 'Demonstrates a long running operation with progress updates.',
      annotations: { readOnlyHint: true, destructiveHint: false },
      inputSchema: { type: 'object', properties: { duration: { type: 'number' }, steps: { type: 'number' } } },
    });
  });

  it('calls a tool and reports progress notifications', async () => {
    const progress: ToolProgress[] = [];
    const result = await runtime.callTool('everything__trigger-long-running-operation', { duration: 0.2, steps: 2 }, { controller: new AbortController(), onProgress: (p) => progress.push(p) });
    // The last step's notification can arrive after the result, when the SDK has stopped listening for it.
    expect(progress[0]).toEqual({ progress: 1, total: 2 });
    expect(result).toEqual({ content: [{ type: 'text', text: 'Long running operation completed. Duration: 0.2 seconds, Steps: 2.' }], isError: false });
  });

  it('refuses an unknown namespaced name with the exact error', async () => {
    await expect(runtime.callTool('other__echo', {}, { controller: new AbortController(), onProgress: () => undefined })).rejects.toThrow('no tool named "other__echo" is available');
  });

  it('makes names every provider accepts', () => {
    expect(namespacedToolName('my.server', 'read file')).toBe('my_server__read_file');
    expect(namespacedToolName('s', 'x'.repeat(80))).toHaveLength(64);
  });
});
