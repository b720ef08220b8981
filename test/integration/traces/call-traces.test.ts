/**
 * Call traces through the real core over real servers: every step of a call (asked, approved by whom,
 * sent to which process or session and connection, progress, answered or failed with its class), for
 * every caller, kept per server in a bounded ring — and never an argument or result value.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, CallTrace, TraceStep } from '../../../src-preload/contract';
import { resultOrThrow } from '../../../src-main/core/tools/tool-caller';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { fixture, is, quietLogger, startEverything, stopChild, tempHome, waitForState } from '../mcp/helpers';

let cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function startCore(servers: Record<string, unknown>): Promise<{ core: SwitchboardCore; requested: ApprovalRequest[] }> {
  const { home, cleanup } = await tempHome();
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
  const core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  const requested: ApprovalRequest[] = [];
  core.events.subscribe((name, payload) => {
    if (name === 'approvalRequested') requested.push(payload as ApprovalRequest);
  });
  cleanups.push(async () => {
    await core.stop();
    await cleanup();
  });
  await core.start();
  for (const name of Object.keys(servers)) await waitForState(core.mcp, name, is('connected'));
  return { core, requested };
}

async function nextRequestId(requested: ApprovalRequest[]): Promise<string> {
  for (let i = 0; i < 500 && requested.length === 0; i++) await new Promise((d) => setTimeout(d, 10));
  const request = requested.shift();
  if (!request) throw new Error('no approval was requested');
  return request.id;
}

const kinds = (trace: CallTrace | null | undefined) => trace?.steps.map((s) => s.kind);
const stepOf = <K extends TraceStep['kind']>(trace: CallTrace, kind: K) => trace.steps.find((s): s is Extract<TraceStep, { kind: K }> => s.kind === kind);
const textOf = (result: ReturnType<typeof resultOrThrow>) => result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

const TOOLBOX = { command: 'node', args: [fixture('toolbox.mjs')] };

describe('the trace of one call', () => {
  it('records asked, approved by the person, sent to the server process, progress and the answer, in order, with relative times', async () => {
    const { core, requested } = await startCore({ box: TOOLBOX });
    const call = core.chat.caller.call({ qualifiedName: 'box__sleep' }, { ms: 300, tick: 60 }, { origin: 'model', conversationId: 'conv-1', callId: 'call-1' });
    const waiting = await core.handlers.callTrace({ conversationId: 'conv-1', callId: 'call-1' });
    expect(waiting).toMatchObject({ server: 'box', tool: 'sleep', origin: 'model', steps: [{ kind: 'asked', at: 0, origin: 'model', argsBytes: JSON.stringify({ ms: 300, tick: 60 }).length }] });
    expect(waiting?.outcome).toBeUndefined();
    await new Promise((d) => setTimeout(d, 150)); // the person takes a while to answer
    await core.chat.broker.answer({ id: await nextRequestId(requested), decision: 'allow_once' });
    await call;

    const trace = (await core.handlers.callTrace({ conversationId: 'conv-1', callId: 'call-1' }))!;
    const steps = kinds(trace)!;
    expect(steps.slice(0, 3)).toEqual(['asked', 'approved', 'sent']);
    expect(steps.filter((k) => k === 'progress').length).toBeGreaterThanOrEqual(2);
    expect(steps.at(-1)).toBe('answered');
    expect(stepOf(trace, 'approved')).toMatchObject({ by: 'user', because: 'you allowed it once' });
    expect(stepOf(trace, 'approved')!.at).toBeGreaterThanOrEqual(140);
    const pid = Number(textOf(resultOrThrow(await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, { origin: 'cli' }))));
    expect(stepOf(trace, 'sent')!.route).toMatchObject({ transport: 'stdio', pid });
    expect(stepOf(trace, 'progress')).toMatchObject({ total: 300 });
    expect(stepOf(trace, 'answered')).toMatchObject({ parts: 1, isError: false });
    expect(trace.outcome).toBe('done');
    const times = trace.steps.map((s) => s.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(trace.durationMs).toBeGreaterThanOrEqual(trace.steps.at(-1)!.at);
  });

  it('names the grant or rule that let a call run without asking, and the rule that refused one', async () => {
    const { core, requested } = await startCore({ box: TOOLBOX });
    const view = await core.handlers.getChatSettings({});
    await core.handlers.setChatSettings({ ...view.settings, rules: [{ pattern: 'box__echo', effect: 'allow' }, { pattern: 'box__env', effect: 'deny' }] });
    await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: 'hi' }, { origin: 'person' });
    await core.chat.caller.call({ server: 'box', tool: 'env' }, {}, { origin: 'model' });
    const pid = core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, { origin: 'model' });
    await core.chat.broker.answer({ id: await nextRequestId(requested), decision: 'always_allow_tool' });
    await pid;
    await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, { origin: 'model' });

    const [again, granted, env, echo] = await core.handlers.serverCallTraces({ name: 'box' });
    expect(echo).toMatchObject({ tool: 'echo', origin: 'person', outcome: 'done' });
    expect(stepOf(echo!, 'approved')).toMatchObject({ by: 'policy', because: 'the rule "box__echo: allow"' });
    expect(kinds(env)).toEqual(['asked', 'denied']);
    expect(stepOf(env!, 'denied')).toMatchObject({ by: 'policy', because: 'the rule "box__env: deny"' });
    expect(stepOf(granted!, 'approved')).toMatchObject({ by: 'user', because: 'you always allow this tool' });
    expect(stepOf(again!, 'approved')).toMatchObject({ by: 'policy', because: 'you always allow this tool' });
  });

  it('records a refusal and a failure with their error class, and shows the reconnect by a new process and connection number', async () => {
    const { core } = await startCore({ box: TOOLBOX });
    const allow = { origin: 'cli' as const };
    await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: 42 }, allow);
    await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, allow);
    await core.chat.caller.call({ server: 'box', tool: 'die' }, {}, allow);
    await waitForState(core.mcp, 'box', is('connected'));
    await core.chat.caller.call({ server: 'box', tool: 'pid' }, {}, allow);
    await core.chat.caller.call({ qualifiedName: 'nowhere__tool' }, { secret: 'x' }, allow);

    const [after, died, before, refused] = await core.handlers.serverCallTraces({ name: 'box' });
    expect(refused).toMatchObject({ tool: 'echo', outcome: 'refused' });
    expect(stepOf(refused!, 'refused')).toEqual({ kind: 'refused', at: expect.any(Number), code: 'invalid_input', class: 'misuse' });
    expect(kinds(refused)).toEqual(['asked', 'refused']);
    expect(died).toMatchObject({ tool: 'die', outcome: 'failed' });
    expect(stepOf(died!, 'failed')).toMatchObject({ code: 'unavailable', class: 'transient' });
    const routeBefore = stepOf(before!, 'sent')!.route;
    const routeAfter = stepOf(after!, 'sent')!.route;
    expect(routeAfter.pid).not.toBe(routeBefore.pid);
    expect(routeAfter.connection).toBeGreaterThan(routeBefore.connection);
    expect(stepOf(died!, 'sent')!.route).toEqual(routeBefore);
  });

  it('keeps traces of calls from the tools panel and from an app, under their origin', async () => {
    const { core, requested } = await startCore({ apps: { command: 'node', args: [fixture('app-tools.mjs')] } });
    const run = core.handlers.runTool({ server: 'apps', tool: 'add', args: { a: 1, b: 2 } });
    await core.chat.broker.answer({ id: await nextRequestId(requested), decision: 'allow_once' });
    await run;
    const app = core.handlers.callAppTool({ server: 'apps', tool: 'add', args: { a: 2, b: 2 } });
    await core.chat.broker.answer({ id: await nextRequestId(requested), decision: 'allow_once' });
    await app;
    const traces = await core.handlers.serverCallTraces({ name: 'apps' });
    expect(traces.map((t) => [t.origin, t.outcome])).toEqual([
      ['app', 'done'],
      ['person', 'done'],
    ]);
  });
});

describe('what a trace never holds', () => {
  it('keeps sizes only: a secret-looking argument, echoed in the result, appears in no trace', async () => {
    const { core } = await startCore({ box: TOOLBOX });
    const secret = 'sk-live-CANARY-7f3a9c2e1d';
    const result = resultOrThrow(await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: `token=${secret}` }, { origin: 'cli', conversationId: 'c', callId: 'k' }));
    expect(textOf(result)).toContain(secret); // the secret really went through the call
    await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: 5, note: secret }, { origin: 'cli' });
    const everything = JSON.stringify([await core.handlers.serverCallTraces({ name: 'box' }), await core.handlers.callTrace({ conversationId: 'c', callId: 'k' })]);
    expect(everything).not.toContain('CANARY');
    expect(everything).not.toContain('token=');
    const trace = (await core.handlers.callTrace({ conversationId: 'c', callId: 'k' }))!;
    expect(stepOf(trace, 'asked')!.argsBytes).toBe(Buffer.byteLength(JSON.stringify({ message: `token=${secret}` })));
    expect(stepOf(trace, 'answered')!.resultBytes).toBeGreaterThan(secret.length);
  });

  it('shows a remote endpoint without its query and its session only as a short hash', async () => {
    const sessions: string[] = [];
    const everything = await startEverything('streamableHttp', { onLine: (line) => sessions.push(...(line.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? [])) });
    cleanups.push(() => stopChild(everything.child));
    const { core } = await startCore({ remote: { url: `${everything.url}?api_key=QUERY-CANARY` } });
    await core.chat.caller.call({ server: 'remote', tool: 'echo' }, { message: 'hello' }, { origin: 'cli' });
    const [trace] = await core.handlers.serverCallTraces({ name: 'remote' });
    const route = stepOf(trace!, 'sent')!.route;
    expect(route).toMatchObject({ transport: 'http', url: everything.url, session: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(route.pid).toBeUndefined();
    expect(sessions.length).toBeGreaterThan(0);
    const text = JSON.stringify(trace);
    expect(text).not.toContain('QUERY-CANARY');
    for (const session of sessions) expect(text).not.toContain(session);
  });
});

describe('bounds', () => {
  it('keeps the last 200 calls of a server; an older chat call is forgotten by its id too', async () => {
    const { core } = await startCore({ box: TOOLBOX });
    for (let i = 0; i < 205; i++) await core.chat.caller.call({ server: 'box', tool: 'echo' }, { message: `m${i}` }, { origin: 'cli', conversationId: 'c', callId: `call-${i}` });
    const traces = await core.handlers.serverCallTraces({ name: 'box' });
    expect(traces).toHaveLength(200);
    expect(traces.at(-1)?.callId).toBe('call-5');
    expect(traces[0]?.callId).toBe('call-204');
    expect(traces.map((t) => t.callId)).toEqual(Array.from({ length: 200 }, (_, i) => `call-${204 - i}`));
    expect(await core.handlers.callTrace({ conversationId: 'c', callId: 'call-4' })).toBeNull();
    expect(await core.handlers.callTrace({ conversationId: 'c', callId: 'call-5' })).not.toBeNull();
  });

  it('refuses the recent calls of a server that does not exist with the exact error', async () => {
    const { core } = await startCore({ box: TOOLBOX });
    await expect(core.handlers.serverCallTraces({ name: 'ghost' })).rejects.toThrow('no server named "ghost"');
  });
});
