import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_TOOL_BUDGET, type ToolBudget, type ToolLoadingMode } from '../../../src-preload/contract/tool-budget';
import { writeFileAtomic } from '../config/atomic-file';

const MODES: readonly ToolLoadingMode[] = ['auto', 'on_demand', 'all'];

/**
 * The person's choices about tools, in <home>/tool-settings.json: which are disabled, which are
 * always loaded for the model (per server or per tool), and the token budget that switches the
 * chat to tools on demand. Keyed by server and the server's own tool name.
 */
export class ToolSettings {
  private disabled = new Map<string, Set<string>>();
  private pinnedTools = new Map<string, Set<string>>();
  private pinnedServers = new Set<string>();
  private budgetValue: ToolBudget = { ...DEFAULT_TOOL_BUDGET };
  private writes: Promise<void> = Promise.resolve();

  constructor(private readonly home: string) {}

  get path(): string {
    return join(this.home, 'tool-settings.json');
  }

  async load(): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(this.path, 'utf8'));
    } catch {
      return; // missing or unreadable: every tool enabled, nothing pinned, the default budget
    }
    if (!isRecord(parsed)) return;
    this.disabled = readToolSets(parsed.disabled);
    const pinned = isRecord(parsed.pinned) ? parsed.pinned : {};
    this.pinnedTools = readToolSets(pinned.tools);
    this.pinnedServers = new Set(Array.isArray(pinned.servers) ? pinned.servers.filter((s): s is string => typeof s === 'string') : []);
    const budget = isRecord(parsed.budget) ? parsed.budget : {};
    this.budgetValue = {
      threshold: typeof budget.threshold === 'number' && Number.isInteger(budget.threshold) && budget.threshold > 0 ? budget.threshold : DEFAULT_TOOL_BUDGET.threshold,
      mode: MODES.includes(budget.mode as ToolLoadingMode) ? (budget.mode as ToolLoadingMode) : DEFAULT_TOOL_BUDGET.mode,
    };
  }

  isEnabled(server: string, tool: string): boolean {
    return !this.disabled.get(server)?.has(tool);
  }

  /** Always loaded for the model: the tool itself is pinned, or its whole server is. */
  isPinned(server: string, tool: string): boolean {
    return this.pinnedServers.has(server) || this.isToolPinned(server, tool);
  }

  isToolPinned(server: string, tool: string): boolean {
    return this.pinnedTools.get(server)?.has(tool) === true;
  }

  isServerPinned(server: string): boolean {
    return this.pinnedServers.has(server);
  }

  budget(): ToolBudget {
    return { ...this.budgetValue };
  }

  /** Change and persist; writes are queued so the file always holds the latest state. */
  set(server: string, tool: string, enabled: boolean): Promise<void> {
    toggle(this.disabled, server, tool, !enabled);
    return this.save();
  }

  setToolPinned(server: string, tool: string, pinned: boolean): Promise<void> {
    toggle(this.pinnedTools, server, tool, pinned);
    return this.save();
  }

  setServerPinned(server: string, pinned: boolean): Promise<void> {
    if (pinned) this.pinnedServers.add(server);
    else this.pinnedServers.delete(server);
    return this.save();
  }

  setBudget(budget: ToolBudget): Promise<void> {
    this.budgetValue = { ...budget };
    return this.save();
  }

  private save(): Promise<void> {
    const sets = (map: Map<string, Set<string>>) => Object.fromEntries([...map].map(([s, t]) => [s, [...t].sort()]));
    const text = JSON.stringify(
      { disabled: sets(this.disabled), pinned: { servers: [...this.pinnedServers].sort(), tools: sets(this.pinnedTools) }, budget: this.budgetValue },
      null,
      2,
    );
    this.writes = this.writes.catch(() => {}).then(() => writeFileAtomic(this.path, `${text}\n`));
    return this.writes;
  }
}

function toggle(map: Map<string, Set<string>>, server: string, tool: string, member: boolean): void {
  const set = map.get(server) ?? new Set<string>();
  if (member) set.add(tool);
  else set.delete(tool);
  if (set.size) map.set(server, set);
  else map.delete(server);
}

function readToolSets(value: unknown): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  if (!isRecord(value)) return map;
  for (const [server, tools] of Object.entries(value)) {
    if (Array.isArray(tools)) map.set(server, new Set(tools.filter((t): t is string => typeof t === 'string')));
  }
  return map;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
