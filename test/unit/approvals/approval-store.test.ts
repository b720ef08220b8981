import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalStore, approvalsFile } from '../../../src-main/core/approvals/approval-store';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { catalogTool } from '../../support/catalog-tool';

const tool = (server: string, name: string, description = 'd'): CatalogTool => catalogTool(server, name, { description });

let home: string;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-approvals-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('ApprovalStore', () => {
  it('binds a grant to the file that defined its server: the same name from another file finds none (SECURITY V1)', async () => {
    const own = { path: join(home, 'servers.json'), userWritten: true };
    const project = { path: '/work/repo/.mcp.json', userWritten: false };
    let where: Record<string, { path: string; userWritten: boolean }> = { s: own, t: own };
    const store = new ApprovalStore(approvalsFile(home), undefined, undefined, undefined, (server) => where[server]);
    await store.grantTool(tool('s', 'a'));
    await store.grantServer(tool('t', 'a'), [tool('t', 'a'), tool('t', 'b')]);
    expect(store.lookup(tool('s', 'a'))).toEqual({ kind: 'granted', scope: 'tool' });
    expect(store.lookup(tool('t', 'b'))).toEqual({ kind: 'granted', scope: 'server' });
    where = { s: project, t: project };
    expect(store.lookup(tool('s', 'a'))).toEqual({ kind: 'none' });
    expect(store.lookup(tool('t', 'b'))).toEqual({ kind: 'none' });
    // A server grant given to the project's server starts afresh: it vouches for its tools, not the old ones.
    await store.grantServer(tool('t', 'b'), [tool('t', 'b'), tool('t', 'c')]);
    expect(store.lookup(tool('t', 'c'))).toEqual({ kind: 'granted', scope: 'server' });
    expect(store.lookup(tool('t', 'a'))).toEqual({ kind: 'new_tool_on_server' });
    // A server no config defines (gone) matches no grant.
    where = {};
    expect(store.lookup(tool('t', 'c'))).toEqual({ kind: 'none' });
    // Nor is a grant written for it: one without a file would count as one from before the binding.
    await expect(store.grantTool(tool('t', 'c'))).rejects.toThrow('server "t" is no longer configured; nothing was always allowed');
  });

  it('counts a grant written before grants were bound to a file for the person\'s own files only', async () => {
    const legacy = { fingerprint: 'x', definition: { tool: 'a', description: 'd', inputSchema: { type: 'object' }, annotations: {} } };
    await writeFile(approvalsFile(home), JSON.stringify({ version: 1, tools: { s: { a: legacy } }, servers: {} }));
    const first = new ApprovalStore(approvalsFile(home));
    await first.load();
    const granted = first.lookup(tool('s', 'a'));
    let userWritten = true;
    const store = new ApprovalStore(approvalsFile(home), undefined, undefined, undefined, () => ({ path: '/anywhere', userWritten }));
    await store.load();
    expect(store.lookup(tool('s', 'a'))).toEqual(granted);
    userWritten = false;
    expect(store.lookup(tool('s', 'a'))).toEqual({ kind: 'none' });
  });

  it('finds no grant until one is given', async () => {
    const store = new ApprovalStore(approvalsFile(home));
    await store.load();
    expect(store.lookup(tool('s', 'a'))).toEqual({ kind: 'none' });
  });

  it('keeps a tool grant across restarts, and reports a changed definition with the approved one', async () => {
    const first = new ApprovalStore(approvalsFile(home));
    await first.load();
    await first.grantTool(tool('s', 'a', 'v1'));
    const second = new ApprovalStore(approvalsFile(home));
    await second.load();
    expect(second.lookup(tool('s', 'a', 'v1'))).toEqual({ kind: 'granted', scope: 'tool' });
    expect(second.lookup(tool('s', 'a', 'v2'))).toEqual({
      kind: 'changed',
      scope: 'tool',
      approved: { tool: 'a', description: 'v1', inputSchema: { type: 'object' }, annotations: {} },
    });
    expect(second.lookup(tool('other', 'a', 'v1'))).toEqual({ kind: 'none' });
  });

  it('vouches for the server tools present at the first server grant and asks for new ones', async () => {
    const store = new ApprovalStore(approvalsFile(home));
    await store.grantServer(tool('s', 'a'), [tool('s', 'a'), tool('s', 'b'), tool('x', 'c')]);
    expect(store.lookup(tool('s', 'b'))).toEqual({ kind: 'granted', scope: 'server' });
    expect(store.lookup(tool('s', 'new'))).toEqual({ kind: 'new_tool_on_server' });
    expect(store.lookup(tool('x', 'c'))).toEqual({ kind: 'none' });
    await store.grantServer(tool('s', 'new'), [tool('s', 'a'), tool('s', 'b', 'changed'), tool('s', 'new')]);
    expect(store.lookup(tool('s', 'new'))).toEqual({ kind: 'granted', scope: 'server' });
    // A later grant for one tool does not silently re-approve another tool's changed definition.
    expect(store.lookup(tool('s', 'b', 'changed')).kind).toBe('changed');
  });

  it('treats names like "constructor", "toString" and "__proto__" as names, never as the object’s machinery', async () => {
    const store = new ApprovalStore(approvalsFile(home));
    await store.load();
    expect(store.lookup(tool('constructor', 'name'))).toEqual({ kind: 'none' });
    await store.grantTool(tool('constructor', 'keys'));
    expect(store.lookup(tool('constructor', 'keys'))).toEqual({ kind: 'granted', scope: 'tool' });
    await store.grantTool(tool('s', '__proto__'));
    expect(store.lookup(tool('s', '__proto__'))).toEqual({ kind: 'granted', scope: 'tool' });
    // Tools the grants never named are not found on the prototype.
    expect(store.lookup(tool('s', 'toString'))).toEqual({ kind: 'none' });
    expect(store.lookup(tool('s', 'fingerprint'))).toEqual({ kind: 'none' });
    await store.grantServer(tool('constructor', 'keys'), [tool('constructor', 'keys')]);
    expect(store.lookup(tool('constructor', 'hasOwnProperty'))).toEqual({ kind: 'new_tool_on_server' });
    // Nothing leaked onto the global objects either.
    expect(typeof Object.keys).toBe('function');
    expect(({} as Record<string, unknown>).keys).toBeUndefined();
    const saved = JSON.parse(await readFile(approvalsFile(home), 'utf8')) as { tools: Record<string, Record<string, unknown>> };
    expect(Object.keys(saved.tools.s!)).toEqual(['__proto__']);
    await store.revokeServer('toString');
    expect(store.lookup(tool('s', '__proto__'))).toEqual({ kind: 'granted', scope: 'tool' });
  });

  it('writes atomically: one JSON file, no temp files left', async () => {
    const store = new ApprovalStore(approvalsFile(home));
    await Promise.all([store.grantTool(tool('s', 'a')), store.grantTool(tool('s', 'b')), store.grantServer(tool('t', 'c'), [tool('t', 'c')])]);
    expect(await readdir(home)).toEqual(['approvals.json']);
    const saved = JSON.parse(await readFile(approvalsFile(home), 'utf8'));
    expect(Object.keys(saved.tools.s).sort()).toEqual(['a', 'b']);
    expect(saved.tools.s.a.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('treats an unreadable file as no grants, so everything asks', async () => {
    await writeFile(approvalsFile(home), '{"version": 1, "tools": ');
    const warnings: string[] = [];
    const store = new ApprovalStore(approvalsFile(home), { info() {}, error() {}, warn: (m) => warnings.push(m) });
    await store.load();
    expect(store.lookup(tool('s', 'a'))).toEqual({ kind: 'none' });
    expect(warnings).toEqual([`ignoring unreadable approvals file ${approvalsFile(home)}; every tool will ask again`]);
  });

  it('forgets every grant of a revoked server', async () => {
    const store = new ApprovalStore(approvalsFile(home));
    await store.grantTool(tool('s', 'a'));
    await store.grantServer(tool('s', 'b'), [tool('s', 'b')]);
    await store.grantTool(tool('keep', 'a'));
    await store.revokeServer('s');
    expect(store.lookup(tool('s', 'a'))).toEqual({ kind: 'none' });
    expect(store.lookup(tool('s', 'b'))).toEqual({ kind: 'none' });
    expect(store.lookup(tool('keep', 'a'))).toEqual({ kind: 'granted', scope: 'tool' });
  });
});
