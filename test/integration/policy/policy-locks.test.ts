/**
 * The renderer's side of the administrator's policy (SECURITY X2), over the real core and the one dispatch
 * both shells use: what getPolicy tells the pages, and the attacker's view — a renderer (or a page that got
 * hold of the API) trying to relax what the policy locks gets a refusal and no file changes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatch } from '../../../src-main/core/dispatch';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';
import { quietLogger, tempHome } from '../mcp/helpers';

const saved = process.env.SWITCHBOARD_POLICY;
let home: string;
let cleanup: () => Promise<void>;
let core: SwitchboardCore;

// Switched off: nothing needs to run for what is written and refused here.
const SERVERS = { servers: { auto: { command: 'node', args: ['-v'], enabled: false, approval: 'auto' }, asks: { command: 'node', args: ['-v'], enabled: false } } };
const RULES = { autoAllowReadOnly: false, rules: [{ pattern: 'kept__*', effect: 'allow' }] };
const CHAT = { provider: 'anthropic', baseUrl: '', model: 'claude-test' };

beforeEach(async () => {
  ({ home, cleanup } = await tempHome());
  process.env.SWITCHBOARD_POLICY = join(home, 'policy.json');
  await writeFile(join(home, 'servers.json'), JSON.stringify(SERVERS, null, 2));
  await writeFile(join(home, 'approval-settings.json'), JSON.stringify(RULES, null, 2));
  core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quietLogger, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 300 } });
  await core.start();
});
afterEach(async () => {
  await core.stop();
  if (saved === undefined) delete process.env.SWITCHBOARD_POLICY;
  else process.env.SWITCHBOARD_POLICY = saved;
  await cleanup();
});

const policy = (text: string) => writeFile(process.env.SWITCHBOARD_POLICY!, text);
const invoke = (method: string, payload: unknown) => dispatch(core.handlers, method, payload);
const files = async () => ({ servers: await readFile(join(home, 'servers.json'), 'utf8'), rules: await readFile(join(home, 'approval-settings.json'), 'utf8') });
const refused = (message: string) => ({ ok: false, error: { code: 'invalid_input', message: expect.stringContaining(message) } });

describe('the policy the pages see (SECURITY X2)', () => {
  it('getPolicy says what the file locks now: nothing, then approvals and installs, then everything when it breaks', async () => {
    expect(await invoke('getPolicy', {})).toEqual({ ok: true, value: expect.objectContaining({ status: 'none', approvalsLocked: false, autoOverridden: [] }) });
    await policy(JSON.stringify({ approvals: 'always-ask', installs: 'registry-only' }));
    expect(await invoke('getPolicy', {})).toEqual({
      ok: true,
      value: { status: 'active', path: process.env.SWITCHBOARD_POLICY, approvalsLocked: true, sandboxRequired: false, installs: 'registry-only', limitsServers: false, autoOverridden: ['auto'] },
    });
    await policy('{ "approvals": "always-ask",');
    expect(await invoke('getPolicy', {})).toEqual({
      ok: true,
      value: expect.objectContaining({ status: 'broken', problem: expect.stringContaining('is not valid JSON'), approvalsLocked: true, sandboxRequired: true, installs: 'off' }),
    });
  });
});

describe('a renderer cannot relax what the policy locks (SECURITY X2)', () => {
  it('an allow rule or read-only auto-allow is refused while every call asks, and nothing is written', async () => {
    await policy(JSON.stringify({ approvals: 'always-ask' }));
    const before = await files();
    expect(await invoke('setChatSettings', { ...CHAT, autoAllowReadOnly: false, rules: [...RULES.rules, { pattern: '*', effect: 'allow' }] })).toEqual(
      refused('the allow rule "*" cannot be added: every tool call asks (set by your organization)'),
    );
    expect(await invoke('setChatSettings', { ...CHAT, autoAllowReadOnly: true, rules: RULES.rules })).toEqual(refused('read-only tools cannot run without asking'));
    expect(await files()).toEqual(before);
    // What only tightens still saves, and the rule that was there stays (shown as not in force).
    expect(await invoke('setChatSettings', { ...CHAT, autoAllowReadOnly: false, rules: [...RULES.rules, { pattern: '*__delete_*', effect: 'deny' }] })).toMatchObject({ ok: true });
    expect(JSON.parse((await files()).rules).rules).toEqual([...RULES.rules, { pattern: '*__delete_*', effect: 'deny' }]);
  });

  it('a server cannot be set, added or pasted to run without asking while every call asks, and servers.json is not written', async () => {
    await policy(JSON.stringify({ approvals: 'always-ask' }));
    const before = await files();
    const entry = { command: 'node', args: ['-v'], enabled: false, approval: 'auto' };
    expect(await invoke('updateServer', { name: 'asks', entry })).toEqual(refused('server "asks" cannot be set to run without asking: every tool call asks (set by your organization)'));
    expect(await invoke('addServer', { name: 'new', entry })).toEqual(refused('server "new" cannot be set to run without asking'));
    expect(await invoke('pasteServers', { text: JSON.stringify({ mcpServers: { pasted: entry } }) })).toEqual(refused('server "pasted" cannot be set to run without asking'));
    expect(await files()).toEqual(before);
    // The server that had auto keeps it through an edit of something else; its calls ask anyway.
    expect(await invoke('updateServer', { name: 'auto', entry: { ...entry, args: ['--version'] } })).toEqual({ ok: true, value: null });
  });

  it('a broken policy file locks them too: fail closed', async () => {
    await policy('not json');
    const before = await files();
    expect(await invoke('setChatSettings', { ...CHAT, autoAllowReadOnly: false, rules: [{ pattern: 'x', effect: 'allow' }] })).toEqual(refused('set by your organization'));
    expect(await invoke('updateServer', { name: 'asks', entry: { command: 'node', approval: 'auto' } })).toEqual(refused('set by your organization'));
    expect(await files()).toEqual(before);
  });

  it('without the lock the person decides: the same changes are written', async () => {
    await policy(JSON.stringify({ approvals: 'person-decides' }));
    expect(await invoke('setChatSettings', { ...CHAT, autoAllowReadOnly: true, rules: [{ pattern: '*', effect: 'allow' }] })).toMatchObject({ ok: true });
    expect(await invoke('updateServer', { name: 'asks', entry: { command: 'node', args: ['-v'], enabled: false, approval: 'auto' } })).toEqual({ ok: true, value: null });
    expect(JSON.parse((await files()).servers).servers.asks.approval).toBe('auto');
  });
});
