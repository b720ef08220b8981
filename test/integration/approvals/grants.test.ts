/**
 * The grants page's invokes over the real core and the one call path: an always-allow given in the
 * approval (per tool, per server) and an allow rule are listed with when they were given; revoking
 * one makes the very next call ask again, and leaves the others as they were.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, ToolCallApprovalRequest } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { fixture, is, quietLogger, tempHome, waitForState } from '../mcp/helpers';

let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore;
const requested: ApprovalRequest[] = [];

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  const servers = { box: { command: 'node', args: [fixture('toolbox.mjs')] }, other: { command: 'node', args: [fixture('toolbox.mjs'), '--name', 'other'] } };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ servers }));
  core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  requested.length = 0;
  core.events.subscribe((name, payload) => {
    if (name === 'approvalRequested') requested.push(payload as ApprovalRequest);
  });
  await core.start();
  for (const name of ['box', 'other']) await waitForState(core.mcp, name, is('connected'));
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

/** A person's run of a tool; answers the approval with `decision` when one is asked. Says whether it asked. */
async function run(server: string, tool: string, decision: 'always_allow_tool' | 'always_allow_server' | 'allow_once' = 'allow_once') {
  const call = core.chat.caller.call({ server, tool }, {}, { origin: 'person' });
  const outcome = await Promise.race([call, new Promise<'waiting'>((done) => setTimeout(() => done('waiting'), 1500))]);
  if (outcome !== 'waiting') return { asked: false, outcome };
  const request = await nextRequest();
  await core.chat.broker.answer({ id: request.id, decision });
  return { asked: true, outcome: await call };
}

const invoke = (name: 'listGrants' | 'revokeGrant' | 'setChatSettings' | 'getChatSettings', payload: unknown) => dispatch(core.handlers, name, payload);

describe('grants', () => {
  it('lists a tool grant with its date, and revoking it makes the next call ask', async () => {
    const before = Date.now();
    expect((await run('box', 'pid', 'always_allow_tool')).asked).toBe(true);
    expect(await run('box', 'pid')).toMatchObject({ asked: false, outcome: { kind: 'done', because: 'you always allow this tool' } });
    const listed = await invoke('listGrants', {});
    expect(listed).toEqual({ ok: true, value: [{ kind: 'tool', server: 'box', tool: 'pid', grantedAt: expect.any(Number) }] });
    const grantedAt = (listed as { value: { grantedAt: number }[] }).value[0]!.grantedAt;
    expect(grantedAt).toBeGreaterThanOrEqual(before);
    expect(grantedAt).toBeLessThanOrEqual(Date.now());

    expect(await invoke('revokeGrant', { kind: 'tool', server: 'box', tool: 'pid' })).toEqual({ ok: true, value: [] });
    expect((await run('box', 'pid')).asked).toBe(true);
    // Revoked on disk too: a restart does not bring it back.
    expect(JSON.parse(await readFile(join(home, 'approvals.json'), 'utf8')).tools).toEqual({});
  });

  it('revokes a server grant without touching another server’s or a tool’s', async () => {
    await run('box', 'pid', 'always_allow_server');
    await run('other', 'pid', 'always_allow_tool');
    const listed = await invoke('listGrants', {});
    expect(listed).toMatchObject({ ok: true, value: expect.arrayContaining([{ kind: 'server', server: 'box', tools: expect.arrayContaining(['pid', 'echo', 'sleep']), grantedAt: expect.any(Number) }]) });
    expect((await run('box', 'sleep')).asked).toBe(false);

    const after = await invoke('revokeGrant', { kind: 'server', server: 'box' });
    expect(after).toMatchObject({ ok: true, value: [{ kind: 'tool', server: 'other', tool: 'pid' }] });
    expect((await run('box', 'pid')).asked).toBe(true);
    expect(await run('other', 'pid')).toMatchObject({ asked: false, outcome: { because: 'you always allow this tool' } });
  });

  it('lists an allow rule with when it was saved, and revoking removes only that rule', async () => {
    const settings = { provider: 'openai-compatible', baseUrl: '', model: 'm', autoAllowReadOnly: false, rules: [{ pattern: 'box__p*', effect: 'allow' }, { pattern: 'box__env', effect: 'deny' }] };
    expect((await invoke('setChatSettings', settings)).ok).toBe(true);
    expect(await run('box', 'pid')).toMatchObject({ asked: false, outcome: { because: 'the rule "box__p*: allow"' } });
    expect(await invoke('listGrants', {})).toEqual({ ok: true, value: [{ kind: 'rule', pattern: 'box__p*', grantedAt: expect.any(Number) }] });

    expect(await invoke('revokeGrant', { kind: 'rule', pattern: 'box__p*' })).toEqual({ ok: true, value: [] });
    expect((await run('box', 'pid')).asked).toBe(true);
    expect(await invoke('getChatSettings', {})).toMatchObject({ ok: true, value: { settings: { rules: [{ pattern: 'box__env', effect: 'deny' }] } } });
  });

  it('refuses to revoke what was never granted, with the exact reason, and changes nothing', async () => {
    await run('box', 'pid', 'always_allow_tool');
    const file = await readFile(join(home, 'approvals.json'), 'utf8');
    expect(await invoke('revokeGrant', { kind: 'tool', server: 'box', tool: 'echo' })).toEqual({ ok: false, error: { code: 'not_found', message: 'tool "echo" on server "box" is not always allowed' } });
    expect(await invoke('revokeGrant', { kind: 'server', server: 'box' })).toEqual({ ok: false, error: { code: 'not_found', message: 'server "box" is not always allowed' } });
    expect(await invoke('revokeGrant', { kind: 'rule', pattern: 'x*' })).toEqual({ ok: false, error: { code: 'not_found', message: 'there is no allow rule "x*"' } });
    expect(await invoke('revokeGrant', { kind: 'tool', server: '__proto__', tool: 'x' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(await readFile(join(home, 'approvals.json'), 'utf8')).toBe(file);
    expect(await run('box', 'pid')).toMatchObject({ asked: false });
  });

  it('forgets a removed server\'s always-allows: a server added again under its name asks (SECURITY V1)', async () => {
    await run('box', 'pid', 'always_allow_server');
    const pid = () => core.mcp.tools().find((t) => t.server === 'box' && t.name === 'pid')!;
    expect(core.chat.broker.policyDecision(pid(), {})).toMatchObject({ kind: 'run' });
    expect((await dispatch(core.handlers, 'removeServer', { name: 'box' })).ok).toBe(true);
    await expect.poll(() => core.mcp.statuses().map((s) => s.name)).toEqual(['other']);
    const added = await dispatch(core.handlers, 'addServer', { name: 'box', entry: { command: 'node', args: [fixture('toolbox.mjs')] } });
    expect(added.ok).toBe(true);
    await waitForState(core.mcp, 'box', is('connected'));
    expect(core.chat.broker.policyDecision(pid(), {})).toMatchObject({ kind: 'ask' });
    expect(await invoke('listGrants', {})).toEqual({ ok: true, value: [] });
  });
});
