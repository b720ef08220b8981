import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApprovalBroker } from '../../../src-main/core/approvals/approval-broker';
import { ApprovalStore, approvalsFile } from '../../../src-main/core/approvals/approval-store';
import { ToolSettings } from '../../../src-main/core/mcp/tool-settings';
import { ToolCaller } from '../../../src-main/core/tools/tool-caller';
import { isOnDemand, loadedToolNames, planToolLoading, ToolLoading } from '../../../src-main/core/tools/tool-loading';
import { COUNT_SLICE, modelTool, schemaTokens, ToolTokenCounter } from '../../../src-main/core/tools/tool-tokens';
import type { ChatMessage } from '../../../src-preload/contract/chat';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { catalogTool } from '../../support/catalog-tool';

const files = catalogTool('files', 'read_file', { description: 'Read the complete contents of a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } });
const write = catalogTool('files', 'write_file', { description: 'Create or overwrite a file', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } } });
const entities = catalogTool('memory', 'create_entities', { description: 'Create entities in the knowledge graph', inputSchema: { type: 'object', properties: { entities: { type: 'array' } } } });
const off = { ...catalogTool('memory', 'delete_entities', { description: 'Delete entities' }), enabled: false };
const appOnly = catalogTool('pdf', 'page_render', { description: 'Renders a page for the viewer', _meta: { ui: { visibility: ['app'] } } });
const catalog: CatalogTool[] = [files, write, entities, off, appOnly];
const names = (tools: CatalogTool[]) => tools.map((t) => t.qualifiedName);

describe('the loading rules (planToolLoading)', () => {
  const base = { candidates: [files, write, entities], candidateTokens: 300, isPinned: (t: CatalogTool) => t === write, loaded: new Set<string>() };

  it('offers every candidate under the budget in auto mode, and always in "all" mode', () => {
    expect(planToolLoading({ ...base, budget: { threshold: 1000, mode: 'auto' } })).toEqual({ onDemand: false, offered: [files, write, entities], deferred: [] });
    expect(planToolLoading({ ...base, budget: { threshold: 100, mode: 'all' } })).toEqual({ onDemand: false, offered: [files, write, entities], deferred: [] });
  });

  it('over the budget offers only pinned and loaded tools, in catalog order', () => {
    expect(planToolLoading({ ...base, budget: { threshold: 299, mode: 'auto' } })).toEqual({ onDemand: true, offered: [write], deferred: [files, entities] });
    const plan = planToolLoading({ ...base, budget: { threshold: 299, mode: 'auto' }, loaded: new Set(['memory__create_entities', 'files__read_file']) });
    expect(names(plan.offered)).toEqual(['files__read_file', 'files__write_file', 'memory__create_entities']);
  });

  it('"on_demand" mode loads on demand even under the budget; exactly at the threshold is not over', () => {
    expect(planToolLoading({ ...base, budget: { threshold: 100_000, mode: 'on_demand' } }).onDemand).toBe(true);
    expect(isOnDemand({ threshold: 300, mode: 'auto' }, 300)).toBe(false);
    expect(isOnDemand({ threshold: 300, mode: 'auto' }, 301)).toBe(true);
  });

  it('a loaded name that is not a candidate (disabled since, or app-only) is never offered', () => {
    const plan = planToolLoading({ ...base, budget: { threshold: 1, mode: 'auto' }, loaded: new Set(['memory__delete_entities', 'pdf__page_render']) });
    expect(names(plan.offered)).toEqual(['files__write_file']);
  });
});

describe('loadedToolNames', () => {
  it('collects the tools find_tools and provider searches loaded, and skips malformed entries of a hand-edited file', () => {
    const messages = [
      { role: 'user', text: 'hi', at: 1 },
      { role: 'tool', at: 2, results: [{ callId: 'a', name: 'find_tools', args: {}, state: 'succeeded', textForModel: '', loaded: [{ name: 'files__read_file', server: 'files', tool: 'read_file' }] }] },
      { role: 'tool', at: 3, results: [{ callId: 'b', name: 'find_tools', args: {}, state: 'succeeded', textForModel: '', loaded: 'files__write_file' }] },
      { role: 'tool', at: 4, results: [{ callId: 'c', name: 'find_tools', args: {}, state: 'succeeded', textForModel: '', loaded: [null, { name: 7 }, { name: 'memory__create_entities' }] }] },
      { role: 'assistant', at: 5, text: '', toolCalls: [], toolSearches: [{ id: 's', query: 'q', loaded: [{ name: 'files__write_file', server: 'files', tool: 'write_file' }] }, null] },
      { role: 'assistant', at: 6, text: '', toolCalls: [], toolSearches: 'nonsense' },
    ] as unknown as ChatMessage[];
    expect([...loadedToolNames(messages)]).toEqual(['files__read_file', 'memory__create_entities', 'files__write_file']);
  });
});

describe('ToolLoading over the ToolCaller and the person\'s tool settings', () => {
  let home: string;
  let settings: ToolSettings;
  let loading: ToolLoading;

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'sb-loading-'));
    settings = new ToolSettings(home);
    const broker = new ApprovalBroker({ store: new ApprovalStore(approvalsFile(home)), settings: () => ({ rules: [], autoAllowReadOnly: false, serverApproval: () => 'ask' }), emit: () => {} });
    const source = { tools: () => catalog, findTool: () => files, resolveTool: async () => files, callServerTool: async () => ({ content: [], truncatedChars: 0 }) };
    const caller = new ToolCaller({ source, broker });
    loading = new ToolLoading({ all: () => catalog, candidates: () => caller.modelTools(), settings });
  });
  afterEach(async () => {
    await loading.close();
    await rm(home, { recursive: true, force: true });
  });

  it('counts the enabled tools the model may see, per server, with the o200k tokenizer (estimates until the worker has counted)', async () => {
    const text = (t: CatalogTool) => JSON.stringify({ name: t.qualifiedName, description: t.description ?? '', inputSchema: t.inputSchema });
    const first = loading.budgetView();
    expect(first).toMatchObject({ counting: true, enabledTools: 3, enabledTokens: [files, write, entities].reduce((sum, t) => sum + Math.ceil(text(t).length / 4), 0) });
    await loading.ready();
    const expected = (t: CatalogTool) => countTokens(text(t));
    const view = loading.budgetView();
    expect(view.counting).toBe(false);
    expect(view.enabledTools).toBe(3);
    expect(view.enabledTokens).toBe(expected(files) + expected(write) + expected(entities));
    expect(loading.serverTokens('files')).toBe(expected(files) + expected(write));
    expect(loading.serverTokens('pdf')).toBe(0);
    // The panel still shows what a disabled tool would cost.
    expect(loading.tokens(off)).toBe(expected(off));
    expect(view).toMatchObject({ threshold: 10_000, mode: 'auto', overBudget: false, onDemand: false, tokenizer: 'o200k_base (gpt-tokenizer)' });
  });

  it('goes on demand when the budget drops under the catalog, offering server and tool pins only', async () => {
    await loading.ready();
    await settings.setBudget({ threshold: 100, mode: 'auto' });
    await settings.setServerPinned('memory', true);
    expect(loading.budgetView()).toMatchObject({ overBudget: true, onDemand: true, pinnedTools: 1, pinnedTokens: loading.tokens(entities) });
    expect(names(loading.plan(new Set()).offered)).toEqual(['memory__create_entities']);
    await settings.setToolPinned('files', 'write_file', true);
    expect(names(loading.plan(new Set()).offered)).toEqual(['files__write_file', 'memory__create_entities']);
    // Pinning the disabled tool's server does not bring the disabled tool back.
    expect(loading.plan(new Set()).offered).not.toContain(off);
  });

  it('leaves pinned tools out of search results: the model has them already', async () => {
    expect(names(loading.search('file', 5)).sort()).toEqual(['files__read_file', 'files__write_file']);
    await settings.setToolPinned('files', 'read_file', true);
    expect(names(loading.search('file', 5))).toEqual(['files__write_file']);
  });

  it('searches only the tools the model may see: never a disabled or app-only one', () => {
    expect(names(loading.search('read file contents', 5))[0]).toBe('files__read_file');
    expect(names(loading.search('delete entities', 5))).not.toContain('memory__delete_entities');
    expect(names(loading.search('render page viewer', 5))).not.toContain('pdf__page_render');
  });
});

describe('ToolTokenCounter', () => {
  function counterCountingHere(startAfter?: Promise<unknown>) {
    const batches: string[][] = [];
    let counted = 0;
    const counter = new ToolTokenCounter(
      async (texts) => {
        batches.push(texts);
        return texts.map((text) => countTokens(text));
      },
      () => counted++,
      startAfter,
    );
    return { counter, batches, counted: () => counted };
  }

  it('estimates new definitions at once, counts them in one batch, then says so', async () => {
    const { counter, batches, counted } = counterCountingHere();
    const first = counter.countAll([files, write]);
    expect(first.exact).toBe(false);
    expect(first.byTool.get(files)).toBe(Math.ceil(JSON.stringify(modelTool(files)).length / 4));
    await counter.settled();
    expect(batches).toHaveLength(1);
    expect(counted()).toBe(1);
    const exact = counter.countAll([files, write]);
    expect(exact.exact).toBe(true);
    expect(exact.byTool.get(files)).toBe(schemaTokens(modelTool(files)));
  });

  it('keeps counts across a rebuilt catalog with the same definitions: only the changed one is counted again', async () => {
    const { counter, batches } = counterCountingHere();
    counter.countAll([files, write]);
    await counter.settled();
    const rebuilt = [{ ...files }, { ...write, description: `${write.description} and much, much more text here` }];
    expect(counter.countAll(rebuilt).exact).toBe(false);
    await counter.settled();
    const second = counter.countAll(rebuilt);
    expect(batches).toEqual([expect.any(Array), [JSON.stringify(modelTool(rebuilt[1]!))]]);
    expect(second.byTool.get(rebuilt[0]!)).toBe(schemaTokens(modelTool(files)));
    expect(second.byTool.get(rebuilt[1]!)).toBeGreaterThan(schemaTokens(modelTool(write)));
  });

  it('counts nothing before the window is drawn (startAfter), estimates meanwhile', async () => {
    let windowDrawn!: () => void;
    const { counter, batches } = counterCountingHere(new Promise<void>((resolve) => (windowDrawn = resolve)));
    expect(counter.countAll([files, write]).exact).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(batches).toEqual([]);
    windowDrawn();
    await counter.settled();
    expect(batches.map((b) => b.length)).toEqual([2]);
    expect(counter.countAll([files, write]).exact).toBe(true);
  });

  it('starts counting only after the task that asked: the answer with estimates goes out first', async () => {
    const { counter, batches } = counterCountingHere();
    expect(counter.countAll([files, write]).exact).toBe(false);
    // Everything the asking task chains on (a snapshot's reply) runs before the helper is handed the texts.
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(batches).toEqual([]);
    // More asked in the same task joins the one batch.
    counter.countAll([files, write, entities]);
    await counter.settled();
    expect(batches.map((b) => b.length)).toEqual([3]);
  });

  it('hands a big catalog to the helper in slices, one after another, and counts every tool', async () => {
    const { counter, batches, counted } = counterCountingHere();
    const many = Array.from({ length: COUNT_SLICE * 2 + 7 }, (_, i) => ({ ...files, name: `read_${i}`, qualifiedName: `files__read_${i}` }));
    counter.countAll(many);
    await counter.settled();
    expect(batches.map((b) => b.length)).toEqual([COUNT_SLICE, COUNT_SLICE, 7]);
    expect(counted()).toBe(1);
    const exact = counter.countAll(many);
    expect(exact.exact).toBe(true);
    expect(exact.byTool.get(many[COUNT_SLICE * 2 + 6]!)).toBe(schemaTokens(modelTool(many[COUNT_SLICE * 2 + 6]!)));
  });

  it('texts arriving while a batch is counted go in the next batch, and settled() waits for both', async () => {
    const { counter, batches } = counterCountingHere();
    counter.countAll([files]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toHaveLength(1);
    counter.countAll([files, write, entities]);
    await counter.settled();
    expect(batches.map((b) => b.length)).toEqual([1, 2]);
    expect(counter.countAll([files, write, entities]).exact).toBe(true);
  });
});
