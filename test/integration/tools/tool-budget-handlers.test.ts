/**
 * The tool budget as the core serves it: schema tokens per server and tool in the snapshot and the
 * tools list, pins and the threshold through the contract's handlers (parsed like every payload),
 * against a real stdio server (the toolbox fixture).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServersSnapshot, ToolListing } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/dispatch';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';
import { SwitchboardCore } from '../../../src-main/core/switchboard-core';

const TOOLBOX = resolve(dirname(fileURLToPath(import.meta.url)), '../../fixtures/servers/toolbox.mjs');
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('tool budget handlers on the core', () => {
  let home: string;
  let core: SwitchboardCore;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'sb-budget-'));
    await writeFile(join(home, 'servers.json'), JSON.stringify({ servers: { toolbox: { command: process.execPath, args: [TOOLBOX] } } }));
    core = new SwitchboardCore({ home, vault: new MemoryVault(), opener: { open: async () => {} }, logger: quiet, mcp: { loginPath: async () => process.env.PATH ?? '', stopGraceMs: 500 } });
    await core.start();
    await expect.poll(() => core.snapshot().servers[0]?.state, { timeout: 20_000 }).toBe('connected');
  });
  afterEach(async () => {
    await core.stop();
    await rm(home, { recursive: true, force: true });
  });

  const call = (method: string, payload: unknown) => dispatch(core.handlers, method, payload);
  const tools = async () => ((await call('listTools', { server: 'toolbox' })) as { ok: true; value: ToolListing[] }).value;

  it('reports tokens per tool and per server, and their sum as the enabled catalog', async () => {
    // Counted away from the main process: the panel's list waits for the counts, so the snapshot after it is counted too.
    const listed = await tools();
    expect(core.snapshot().toolBudget.counting).toBe(false);
    expect(listed.length).toBeGreaterThan(1);
    for (const tool of listed) expect(tool.tokens).toBeGreaterThan(10);
    const snapshot: ServersSnapshot = core.snapshot();
    const visibleEnabled = listed.filter((t) => t.enabled && (t._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility?.includes('model') !== false);
    expect(snapshot.servers[0]!.schemaTokens).toBe(visibleEnabled.reduce((sum, t) => sum + t.tokens, 0));
    expect(snapshot.toolBudget).toMatchObject({ enabledTokens: snapshot.servers[0]!.schemaTokens, threshold: 10_000, mode: 'auto', overBudget: false, onDemand: false });

    // Turning a tool off takes its tokens out of the server's figure; the panel still shows its cost.
    const off = listed[0]!;
    expect((await call('setToolEnabled', { qualifiedName: off.qualifiedName, enabled: false })).ok).toBe(true);
    await expect.poll(() => core.snapshot().servers[0]!.schemaTokens).toBe(snapshot.servers[0]!.schemaTokens - off.tokens);
    expect((await tools()).find((t) => t.qualifiedName === off.qualifiedName)!.tokens).toBe(off.tokens);
  });

  it('pins a tool and a server, and sets the budget; the snapshot says what the chat does', async () => {
    const [first] = await tools();
    expect(await call('setToolPinned', { qualifiedName: first!.qualifiedName, pinned: true })).toEqual({ ok: true, value: null });
    expect((await tools()).find((t) => t.qualifiedName === first!.qualifiedName)).toMatchObject({ pinned: true, serverPinned: false });
    expect(await call('setToolBudget', { threshold: 100, mode: 'auto' })).toEqual({ ok: true, value: null });
    expect(core.snapshot().toolBudget).toMatchObject({ threshold: 100, overBudget: true, onDemand: true, pinnedTools: 1, pinnedTokens: first!.tokens });
    expect(await call('setServerPinned', { name: 'toolbox', pinned: true })).toEqual({ ok: true, value: null });
    expect(core.snapshot().servers[0]!.pinned).toBe(true);
    expect((await tools()).every((t) => t.pinned && t.serverPinned)).toBe(true);
    const saved = JSON.parse(await readFile(join(home, 'tool-settings.json'), 'utf8'));
    expect(saved).toEqual({ disabled: {}, pinned: { servers: ['toolbox'], tools: { toolbox: [first!.name] } }, budget: { threshold: 100, mode: 'auto' } });
  });

  it('refuses bad input with the exact error and leaves the settings file as it was', async () => {
    await call('setToolBudget', { threshold: 5000, mode: 'on_demand' });
    const before = await readFile(join(home, 'tool-settings.json'), 'utf8');
    expect(await call('setToolBudget', { threshold: 50, mode: 'auto' })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'setToolBudget: invalid payload at "threshold": the threshold is under 100 tokens' } });
    expect(await call('setToolBudget', { threshold: 1000.5, mode: 'auto' })).toEqual({ ok: false, error: { code: 'invalid_input', message: 'setToolBudget: invalid payload at "threshold": the threshold must be a whole number of tokens' } });
    expect((await call('setToolBudget', { threshold: 1000, mode: 'sometimes' })).ok).toBe(false);
    expect(await call('setToolPinned', { qualifiedName: 'toolbox__nope', pinned: true })).toEqual({ ok: false, error: { code: 'not_found', message: 'no tool named "toolbox__nope"' } });
    expect(await call('setServerPinned', { name: 'nope', pinned: true })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no server named "nope"', diagnosis: { class: 'misuse', fix: 'use a server name from the servers list (switchboard status)' } },
    });
    expect(await readFile(join(home, 'tool-settings.json'), 'utf8')).toBe(before);
    expect(core.snapshot().toolBudget).toMatchObject({ threshold: 5000, mode: 'on_demand' });
  });
});
