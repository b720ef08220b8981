/**
 * runTool end to end in the core: real stdio servers (server-everything and the SDK toolbox
 * fixture), the real approval broker, answers given the way the renderer gives them.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, Result, ToolCallApprovalRequest, ToolResult } from '../../../src-preload/contract';
import { ARGUMENTS_FIX } from '../../../src-main/core/diagnosis/call-diagnosis';
import { dispatch } from '../../../src-main/core/dispatch';
import type { SecretVault } from '../../../src-main/core/ports';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { EVERYTHING, fixture, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

const vault: SecretVault = (() => {
  const secrets = new Map<string, string>();
  return {
    get: async (n) => secrets.get(n),
    set: async (n, v) => void secrets.set(n, v),
    delete: async (n) => secrets.delete(n),
    list: async () => [...secrets.keys()],
  };
})();

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore;
const requested: ApprovalRequest[] = [];

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  await writeFile(
    join(home, 'servers.json'),
    JSON.stringify({
      servers: {
        everything: { command: 'node', args: [EVERYTHING, 'stdio'], approval: 'auto' },
        box: { command: 'node', args: [fixture('toolbox.mjs')] },
        autobox: { command: 'node', args: [fixture('toolbox.mjs')], approval: 'auto' },
        crash: { command: 'node', args: [fixture('crash-on-start.mjs')] },
      },
    }),
  );
  core = new SwitchboardCore({ home, vault, opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  requested.length = 0;
  core.events.subscribe((name, payload) => {
    if (name === 'approvalRequested') requested.push(payload as ApprovalRequest);
  });
  await core.start();
  for (const name of ['everything', 'box', 'autobox']) await waitForState(core.mcp, name, is('connected'));
  await waitForState(core.mcp, 'crash', is('error'));
});
afterEach(async () => {
  await core.stop();
  await cleanup();
});

const run = (server: string, tool: string, args: Record<string, unknown>) => dispatch(core.handlers, 'runTool', { server, tool, args }) as Promise<Result<ToolResult>>;

async function nextRequest(): Promise<ToolCallApprovalRequest> {
  for (let i = 0; i < 500 && requested.length === 0; i++) await new Promise((d) => setTimeout(d, 10));
  const request = requested.shift();
  if (request?.kind !== 'tool_call') throw new Error(`expected a tool-call approval request, got ${JSON.stringify(request)}`);
  return request;
}

describe('runTool', () => {
  it('runs a tool of a server set to approval: auto at once and returns the mapped result', async () => {
    expect(await run('everything', 'echo', { message: 'hello by hand' })).toEqual({
      ok: true,
      value: { content: [{ type: 'text', text: 'Echo: hello by hand' }], truncatedChars: 0 },
    });
    expect(requested).toEqual([]);
  });

  it('refuses an unknown server, an unknown tool and a server that is down, naming each', async () => {
    expect(await run('ghost', 'echo', { message: 'x' })).toEqual({ ok: false, error: { code: 'not_found', message: 'no server named "ghost"', diagnosis: { class: 'misuse', fix: 'use a server name from the servers list (switchboard status)' } } });
    expect(await run('everything', 'nope', {})).toEqual({ ok: false, error: { code: 'not_found', message: 'server "everything" has no tool "nope"', diagnosis: { class: 'misuse', fix: 'call only tools everything lists (switchboard tools everything)' } } });
    expect(await run('crash', 'echo', {})).toEqual({
      ok: false,
      error: { code: 'unavailable', message: 'server "crash" is not connected (error: exited with code 1 during initialize)', diagnosis: { class: 'terminal', fix: 'it crashed while starting; its last stderr lines are below — often a missing env variable or argument' } },
    });
  });

  it('refuses a disabled tool', async () => {
    expect(await dispatch(core.handlers, 'setToolEnabled', { qualifiedName: 'everything__echo', enabled: false })).toEqual({ ok: true, value: null });
    expect(await run('everything', 'echo', { message: 'x' })).toEqual({
      ok: false,
      error: {
        code: 'conflict',
        message: 'tool "echo" on server "everything" is disabled; turn it on in the tools list to use it',
        diagnosis: { class: 'misuse', fix: "turn it on in everything's tools list, or call another tool" },
      },
    });
  });

  it('refuses arguments that do not match the input schema, before anything asks or runs', async () => {
    expect(await run('autobox', 'echo', {})).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: `arguments for tool "echo" on server "autobox" do not match its input schema: message: is required`, diagnosis: { class: 'misuse', fix: ARGUMENTS_FIX } },
    });
    expect(await run('box', 'echo', { message: 42 })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'arguments for tool "echo" on server "box" do not match its input schema: message: must be text', diagnosis: { class: 'misuse', fix: ARGUMENTS_FIX } },
    });
    expect(requested).toEqual([]);
  });

  it('refuses a malformed payload at the contract', async () => {
    expect(await dispatch(core.handlers, 'runTool', { server: 'box', tool: 'echo', args: [] })).toEqual({
      ok: false,
      error: { code: 'invalid_input', message: 'runTool: invalid payload at "args": expected an object of named arguments, received array' },
    });
  });

  it('asks on an "ask" server, runs only after allow, and runs main\'s copy of the arguments', async () => {
    let settled = false;
    const pending = run('box', 'echo', { message: 'asked' }).finally(() => (settled = true));
    const request = await nextRequest();
    expect(request).toMatchObject({ server: 'box', tool: 'echo', name: 'box__echo', args: { message: 'asked' }, askReason: 'default' });
    expect(core.chat.broker.pendingRequests().map((r) => r.id)).toEqual([request.id]);
    expect(settled).toBe(false);
    expect(await dispatch(core.handlers, 'answerApproval', { id: request.id, decision: 'allow_once', editedArgs: { message: 'edited in the dialog' } })).toEqual({ ok: true, value: null });
    expect(await pending).toEqual({ ok: true, value: { content: [{ type: 'text', text: 'edited in the dialog' }], truncatedChars: 0 } });
  });

  it('tells the panel when a followed run is approved, so its time counts from there and not from the click', async () => {
    const updates: unknown[] = [];
    core.events.subscribe((name, payload) => {
      if (name === 'toolRunUpdated') updates.push(payload);
    });
    const pending = dispatch(core.handlers, 'runTool', { server: 'box', tool: 'echo', args: { message: 'timed' }, runId: 'run-timed' });
    const request = await nextRequest();
    expect(updates).toEqual([]);
    await dispatch(core.handlers, 'answerApproval', { id: request.id, decision: 'allow_once' });
    expect(await pending).toMatchObject({ ok: true });
    expect(updates[0]).toEqual({ runId: 'run-timed', approved: true });
  });

  it('comes back with the denial and its reason when the person denies', async () => {
    const pending = run('box', 'echo', { message: 'nope' });
    const request = await nextRequest();
    await dispatch(core.handlers, 'answerApproval', { id: request.id, decision: 'deny', reason: 'not now' });
    expect(await pending).toEqual({ ok: false, error: { code: 'conflict', message: 'you denied running tool "echo" on server "box": not now' } });
  });

  it('comes back with the rule that refused it, without asking', async () => {
    const settings = { provider: 'openai-compatible', baseUrl: '', model: 'any', autoAllowReadOnly: false, rules: [{ pattern: 'box__env', effect: 'deny' }] };
    expect((await dispatch(core.handlers, 'setChatSettings', settings)).ok).toBe(true);
    expect(await run('box', 'env', {})).toEqual({ ok: false, error: {
        code: 'conflict',
        message: 'tool "env" on server "box" was refused by the rule "box__env: deny"',
        diagnosis: { class: 'terminal', fix: 'change the approval rule that denies it (Chat settings → rules) if it should run' },
      },
    });
    expect(requested).toEqual([]);
  });

  it('returns a tool error as a result with isError true', async () => {
    expect(await run('autobox', 'fail', {})).toEqual({ ok: true, value: { isError: true, content: [{ type: 'text', text: 'the tool failed' }], truncatedChars: 0 } });
  });
});
