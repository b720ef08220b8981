/**
 * The one call path (ToolCaller) in the real core over real stdio servers: each origin, a disabled
 * tool, bad arguments, a denied approval, and MCP Apps visibility (app-only and model-only tools).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, ToolCallApprovalRequest } from '../../../src-preload/contract';
import type { CallOutcome } from '../../../src-main/core/mcp/call-vocabulary';
import { resultOrThrow } from '../../../src-main/core/tools/tool-caller';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { fixture, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore;
const requested: ApprovalRequest[] = [];

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { apps: { command: 'node', args: [fixture('app-tools.mjs')] }, box: { command: 'node', args: [fixture('toolbox.mjs')] } } }));
  core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  requested.length = 0;
  core.events.subscribe((name, payload) => {
    if (name === 'approvalRequested') requested.push(payload as ApprovalRequest);
  });
  await core.start();
  for (const name of ['apps', 'box']) await waitForState(core.mcp, name, is('connected'));
});
afterEach(async () => {
  await core.stop();
  await cleanup();
});

async function nextRequest(): Promise<ToolCallApprovalRequest> {
  for (let i = 0; i < 500 && requested.length === 0; i++) await new Promise((d) => setTimeout(d, 10));
  const request = requested.shift();
  if (request?.kind !== 'tool_call') throw new Error('no tool-call approval was requested');
  return request;
}

const textOf = (outcome: CallOutcome) => resultOrThrow(outcome).content.map((p) => (p.type === 'text' ? p.text : '')).join('');

describe('one call path for every origin', () => {
  it('asks the person for the model, the tools panel and an app, saying who asked; the CLI runs on the typed command', async () => {
    for (const origin of ['model', 'person', 'app'] as const) {
      const call = core.chat.caller.call({ server: 'apps', tool: 'add' }, { a: 2, b: 3 }, { origin, ...(origin === 'app' ? { appServer: 'apps' } : {}) });
      const request = await nextRequest();
      expect(request).toMatchObject({ origin, server: 'apps', tool: 'add', name: 'apps__add', args: { a: 2, b: 3 } });
      await core.chat.broker.answer({ id: request.id, decision: 'allow_once' });
      expect(textOf(await call)).toBe('5');
    }
    const cli = await core.chat.caller.call({ server: 'apps', tool: 'add' }, { a: 1, b: 1 }, { origin: 'cli' });
    expect(cli).toMatchObject({ kind: 'done', because: 'you ran it yourself with switchboard call' });
    expect(requested).toEqual([]);
  });

  it('keeps the tool as its server listed it: _meta, title and the namespaced name side by side', async () => {
    const tool = await core.mcp.resolveTool({ server: 'apps', tool: 'show-board' });
    expect(tool).toMatchObject({ name: 'show-board', qualifiedName: 'apps__show-board', server: 'apps', _meta: { ui: { resourceUri: 'ui://board/app.html', visibility: ['model', 'app'] } } });
    const cli = await core.chat.caller.call({ qualifiedName: 'apps__show-board' }, { title: 'Q4' }, { origin: 'cli' });
    expect(resultOrThrow(cli)).toEqual({ content: [{ type: 'text', text: 'board "Q4"' }], structuredContent: { title: 'Q4', columns: 3 }, truncatedChars: 0 });
  });

  it('declares the MCP Apps extension to every server it connects', async () => {
    const declared = JSON.parse(textOf(await core.chat.caller.call({ server: 'apps', tool: 'client-capabilities' }, {}, { origin: 'cli' })));
    expect(declared.extensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
  });

  it('refuses a disabled tool for every origin, the CLI included, before anyone is asked', async () => {
    await core.mcp.setToolEnabled('box__echo', false);
    for (const origin of ['model', 'person', 'cli'] as const) {
      const outcome = await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: 'x' }, { origin });
      expect(outcome.kind).toBe('refused');
      expect(() => resultOrThrow(outcome)).toThrow('tool "echo" on server "box" is disabled; turn it on in the tools list to use it');
    }
    expect(requested).toEqual([]);
  });

  it('refuses arguments that do not match the schema with the exact error, the CLI included', async () => {
    const outcome = await core.chat.caller.call({ server: 'apps', tool: 'add' }, { a: 'two', b: 3 }, { origin: 'cli' });
    expect(() => resultOrThrow(outcome)).toThrow('arguments for tool "add" on server "apps" do not match its input schema: a: must be a number');
    expect(requested).toEqual([]);
  });

  it('tells a denial apart from a failure, with the reason the person gave', async () => {
    const call = core.chat.caller.call({ server: 'apps', tool: 'add' }, { a: 1, b: 2 }, { origin: 'person' });
    await core.chat.broker.answer({ id: (await nextRequest()).id, decision: 'deny', reason: 'not now' });
    const outcome = await call;
    expect(outcome).toMatchObject({ kind: 'denied', by: 'user', reason: 'not now' });
    expect(() => resultOrThrow(outcome)).toThrow('you denied running tool "add" on server "apps": not now');
  });

  it('lets a deny rule stop even the CLI', async () => {
    const view = await core.handlers.getChatSettings({});
    await core.handlers.setChatSettings({ ...view.settings, rules: [{ pattern: 'apps__*', effect: 'deny' }] });
    const outcome = await core.chat.caller.call({ server: 'apps', tool: 'add' }, { a: 1, b: 2 }, { origin: 'cli' });
    expect(() => resultOrThrow(outcome)).toThrow('tool "add" on server "apps" was refused by the rule "apps__*: deny"');
  });

  it('never offers app-only tools to the model, and refuses the model that calls one anyway', async () => {
    const offered = core.chat.caller.modelTools().map((t) => t.qualifiedName);
    expect(offered).toEqual(expect.arrayContaining(['apps__show-board', 'apps__model-only', 'apps__add']));
    expect(offered).not.toContain('apps__poll-board');
    const outcome = await core.chat.caller.call({ qualifiedName: 'apps__poll-board' }, {}, { origin: 'model' });
    expect(() => resultOrThrow(outcome)).toThrow('tool "poll-board" on server "apps" is only for apps; the model cannot call it');
  });

  it('lets an app call only tools its own server made visible to apps', async () => {
    const poll = core.chat.caller.call({ server: 'apps', tool: 'poll-board' }, {}, { origin: 'app', appServer: 'apps' });
    const request = await nextRequest();
    expect(request).toMatchObject({ origin: 'app', tool: 'poll-board' });
    await core.chat.broker.answer({ id: request.id, decision: 'allow_once' });
    expect(textOf(await poll)).toBe('poll 1');

    const modelOnly = await core.chat.caller.call({ server: 'apps', tool: 'model-only' }, {}, { origin: 'app', appServer: 'apps' });
    expect(() => resultOrThrow(modelOnly)).toThrow('tool "model-only" on server "apps" is not available to apps (its server did not make it visible to apps)');
    const otherServer = await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, { origin: 'app', appServer: 'apps' });
    expect(() => resultOrThrow(otherServer)).toThrow('an app of server "apps" cannot call tool "pid" on server "box": apps call only their own server\'s tools');
    expect(requested).toEqual([]);
  });

  it('names an unknown tool and a server that is not there', async () => {
    await expect(core.chat.caller.call({ server: 'box', tool: 'nope' }, {}, { origin: 'person' }).then(resultOrThrow)).rejects.toThrow('server "box" has no tool "nope"');
    await expect(core.chat.caller.call({ server: 'ghost', tool: 'x' }, {}, { origin: 'person' }).then(resultOrThrow)).rejects.toThrow('no server named "ghost"');
    await expect(core.chat.caller.call({ qualifiedName: 'ghost__x' }, {}, { origin: 'model' }).then(resultOrThrow)).rejects.toThrow('no tool named "ghost__x"');
  });
});
