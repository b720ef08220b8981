import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/atomic-file';

/** Per-tool enable/disable, keyed by server and the server's own tool name, in <home>/tool-settings.json. */
export class ToolSettings {
  private disabled = new Map<string, Set<string>>();
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
      return; // missing or unreadable: every tool enabled
    }
    const disabled = (parsed as { disabled?: unknown })?.disabled;
    if (typeof disabled !== 'object' || disabled === null) return;
    for (const [server, tools] of Object.entries(disabled)) {
      if (Array.isArray(tools)) this.disabled.set(server, new Set(tools.filter((t): t is string => typeof t === 'string')));
    }
  }

  isEnabled(server: string, tool: string): boolean {
    return !this.disabled.get(server)?.has(tool);
  }

  /** Change and persist; writes are queued so the file always holds the latest state. */
  set(server: string, tool: string, enabled: boolean): Promise<void> {
    const set = this.disabled.get(server) ?? new Set<string>();
    if (enabled) set.delete(tool);
    else set.add(tool);
    if (set.size) this.disabled.set(server, set);
    else this.disabled.delete(server);
    const text = JSON.stringify({ disabled: Object.fromEntries([...this.disabled].map(([s, t]) => [s, [...t].sort()])) }, null, 2);
    this.writes = this.writes.catch(() => {}).then(() => writeFileAtomic(this.path, `${text}\n`));
    return this.writes;
  }
}
