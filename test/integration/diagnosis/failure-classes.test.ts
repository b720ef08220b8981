/**
 * Every failure carries a class and a fix, met for real: a missing command, a server that exits at
 * start, one that never answers initialize, bad arguments and an unknown tool through the one call
 * path, a call that times out, a server that dies mid-call — in the servers view, the call outcome
 * and what the model is told.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatSessions, type ChatEvent } from '../../../src-main/core/chat/chat-session';
import { ConversationStore, conversationsDir } from '../../../src-main/core/chat/conversation-store';
import { OpenAiCompatibleProvider } from '../../../src-main/core/chat/providers/openai-provider';
import { ARGUMENTS_FIX } from '../../../src-main/core/diagnosis/call-diagnosis';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import type { CallOutcome } from '../../../src-main/core/mcp/call-vocabulary';
import { startFakeLlmServer, type FakeLlmServer } from '../../fixtures/llm/fake-llm-server';
import { EventLog, toolResultsIn } from '../chat/chat-test-kit';
import { fixture, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore;

beforeAll(async () => {
  ({ home, cleanup } = await tempHome());
  const servers = {
    missing: { command: 'switchboard-no-such-command' },
    crashes: { command: 'node', args: [fixture('crash-on-start.mjs')] },
    hangs: { command: 'node', args: [fixture('hang-initialize.mjs')], timeout: 1 },
    box: { command: 'node', args: [fixture('toolbox.mjs')], toolTimeout: 1, approval: 'auto' },
  };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
  core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  await core.start();
  await waitForState(core.mcp, 'box', is('connected'));
  for (const name of ['missing', 'crashes', 'hangs']) await waitForState(core.mcp, name, is('error'));
});
afterAll(async () => {
  await core.stop();
  await cleanup();
});

const view = (name: string) => core.snapshot().servers.find((s) => s.name === name)!;
const cli = (server: string, tool: string, args: Record<string, unknown>) => core.chat.caller.call({ server, tool }, args, { origin: 'cli' });
function failure(outcome: CallOutcome) {
  if (outcome.kind !== 'refused' && outcome.kind !== 'failed') throw new Error(`expected a failure, got ${outcome.kind}`);
  return { message: outcome.error.message, diagnosis: outcome.error.diagnosis };
}

describe('connection failures in the servers view', () => {
  it('a missing command is terminal: install it', () => {
    expect(view('missing').reason).toMatch(/^command not found: switchboard-no-such-command/);
    expect(view('missing').diagnosis).toEqual({ class: 'terminal', fix: expect.stringMatching(/^install switchboard-no-such-command \(for npx: install Node\.js\)/) });
  });

  it('a server that exits while starting is terminal: its stderr says why', () => {
    expect(view('crashes').reason).toBe('exited with code 1 during initialize');
    expect(view('crashes').diagnosis).toEqual({ class: 'terminal', fix: 'it crashed while starting; its last stderr lines are below — often a missing env variable or argument' });
  });

  it('a server that never finishes initialize is transient: it may start next time, or needs a longer timeout', () => {
    expect(view('hangs').reason).toBe('timed out after 1 s during initialize');
    expect(view('hangs').diagnosis).toMatchObject({ class: 'transient', fix: expect.stringContaining('raise "timeout" for "hangs"') });
  });

  it('a connected server has no diagnosis', () => {
    expect(view('box').state).toBe('connected');
    expect(view('box').diagnosis).toBeUndefined();
  });
});

describe('tool-call failures through the one call path', () => {
  it('bad arguments are misuse, refused before the server hears of them', async () => {
    const outcome = failure(await cli('box', 'echo', { message: 42 }));
    expect(outcome.message).toBe('arguments for tool "echo" on server "box" do not match its input schema: message: must be text');
    expect(outcome.diagnosis).toEqual({ class: 'misuse', fix: ARGUMENTS_FIX });
  });

  it('an unknown tool is misuse', async () => {
    const outcome = failure(await cli('box', 'no-such-tool', {}));
    expect(outcome).toEqual({ message: 'server "box" has no tool "no-such-tool"', diagnosis: { class: 'misuse', fix: 'call only tools box lists (switchboard tools box)' } });
  });

  it('a call to a server that cannot start carries that server’s class and fix', async () => {
    const outcome = failure(await cli('missing', 'anything', {}));
    expect(outcome.message).toMatch(/^server "missing" is not connected \(error: command not found/);
    expect(outcome.diagnosis).toEqual(view('missing').diagnosis);
  });

  it('a call that outlives its timeout is transient: try again or raise toolTimeout', async () => {
    const outcome = failure(await cli('box', 'sleep', { ms: 3000 }));
    expect(outcome).toEqual({
      message: 'tool "sleep" on server "box" timed out after 1 s without progress; cancelled',
      diagnosis: { class: 'transient', fix: 'try again; if it keeps timing out, raise "toolTimeout" for "box" (now 1 s)' },
    });
  });

  it('a server that dies during the call is transient: it is reconnecting', async () => {
    const outcome = failure(await cli('box', 'die', {}));
    expect(outcome.message).toMatch(/^server "box" disconnected during the call to "die"/);
    expect(outcome.diagnosis?.class).toBe('transient');
    await waitForState(core.mcp, 'box', is('connected'));
  });
});

describe('the chat tells the model which class it was', () => {
  let llm: FakeLlmServer;
  beforeAll(async () => {
    llm = await startFakeLlmServer();
  });
  afterAll(async () => {
    await llm.close();
  });

  it('puts the class, what it means and the fix in the tool result the model reads', async () => {
    await waitForState(core.mcp, 'box', is('connected'));
    const sessions = new ChatSessions({
      store: new ConversationStore(conversationsDir(home)),
      broker: core.chat.broker,
      tools: core.chat.caller,
      provider: async () => new OpenAiCompatibleProvider({ apiKey: 'sk-test', model: 'fake-model', baseUrl: llm.openAiBaseUrl }),
      emit: new EventLog<ChatEvent>().push,
    });
    llm.script({ toolCalls: [{ id: 'c1', name: 'box__echo', args: { message: 42 } }, { id: 'c2', name: 'box__sleep', args: { ms: 3000 } }] }, { text: 'ok' });
    const { done } = await sessions.send(undefined, 'go');
    expect(await done).toBe('done');
    const [misused, timedOut] = toolResultsIn(llm.requests.at(-1)!);
    expect(misused).toBe(
      `Tool call refused: arguments for tool "echo" on server "box" do not match its input schema: message: must be text. Error class: misuse (the request itself was wrong; ask differently). Fix: ${ARGUMENTS_FIX}.`,
    );
    expect(timedOut).toBe(
      'The tool failed: tool "sleep" on server "box" timed out after 1 s without progress; cancelled. Error class: transient (a passing problem; the same request may work if retried shortly). Fix: try again; if it keeps timing out, raise "toolTimeout" for "box" (now 1 s).',
    );
  });
});
