import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CallCancel, requestSignal, type CancelSignal } from '../../../src-main/core/mcp/call-cancel';
import { fixture } from './helpers';

describe('CallCancel', () => {
  it('calls each listener once on the first abort and keeps its reason', () => {
    const cancel = new CallCancel();
    const heard: string[] = [];
    cancel.signal.addEventListener('abort', () => heard.push('a'));
    cancel.signal.addEventListener('abort', () => heard.push('b'));
    expect(() => cancel.signal.throwIfAborted()).not.toThrow();
    cancel.abort('stopped by the user');
    cancel.abort('a second time');
    expect(heard).toEqual(['a', 'b']);
    expect(cancel.signal.aborted).toBe(true);
    expect(cancel.signal.reason).toBe('stopped by the user');
    expect(() => cancel.signal.throwIfAborted()).toThrow('stopped by the user');
  });

  it('gives an AbortError when aborted without a reason, as AbortController does', () => {
    const cancel = new CallCancel();
    const standard = new AbortController();
    cancel.abort();
    standard.abort();
    expect(cancel.reason).toBeInstanceOf(DOMException);
    expect((cancel.reason as DOMException).name).toBe((standard.signal.reason as DOMException).name);
  });

  it('forgets a removed listener and never calls one added after the abort', () => {
    const cancel = new CallCancel();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    cancel.addEventListener('abort', removed);
    cancel.removeEventListener('abort', removed);
    cancel.abort();
    cancel.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual([]);
  });

});

describe('CallCancel as the SDK request signal', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('cancels a real call: the server hears notifications/cancelled, and the SDK reads no member CancelSignal lacks', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [fixture('toolbox.mjs')], stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    client = new Client({ name: 'call-cancel-test', version: '1.0.0' });
    await client.connect(transport);

    // Every member the SDK reads, through a proxy; our own methods run on the real object.
    const cancel = new CallCancel();
    const read = new Set<string | symbol>();
    const watched = new Proxy(cancel, {
      get(target, member) {
        read.add(member);
        const value = Reflect.get(target, member, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const call = client.callTool({ name: 'sleep', arguments: { ms: 10_000 } }, undefined, { signal: requestSignal(watched) });
    setTimeout(() => cancel.abort('cancelled by the user'), 200);
    await expect(call).rejects.toBeInstanceOf(McpError);
    await expect.poll(() => stderr).toContain('sleep: cancelled by the client');

    const surface: (keyof CancelSignal)[] = ['aborted', 'reason', 'throwIfAborted', 'addEventListener', 'removeEventListener'];
    expect([...read].filter((member) => !(surface as (string | symbol)[]).includes(member))).toEqual([]);
    expect(read.has('addEventListener')).toBe(true);
  });
});
