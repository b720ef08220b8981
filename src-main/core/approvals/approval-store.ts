import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from '../config/atomic-file';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import type { Logger } from '../ports';
import type { GrantLookup } from './approval-policy';
import { fingerprint, toolDefinition, type ToolDefinition } from './tool-fingerprint';

const definitionSchema = z.object({
  tool: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.record(z.string(), z.unknown()),
});
const approvedSchema = z.object({ fingerprint: z.string(), definition: definitionSchema });
const fileSchema = z.object({
  version: z.literal(1),
  /** server -> tool -> the definition "always allow this tool" vouched for. */
  tools: z.record(z.string(), z.record(z.string(), approvedSchema)),
  /** server -> tool -> the definitions "always allow this server" vouched for. */
  servers: z.record(z.string(), z.record(z.string(), approvedSchema)),
});
type GrantsFile = z.infer<typeof fileSchema>;
interface Approved {
  fingerprint: string;
  definition: ToolDefinition;
}

export const approvalsFile = (home: string): string => join(home, 'approvals.json');

/**
 * Always-allow decisions with the hash of each definition they vouched for (SECURITY A3),
 * persisted in the data home. A missing or unreadable file means no grants: everything asks.
 */
export class ApprovalStore {
  private grants: GrantsFile = { version: 1, tools: {}, servers: {} };
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly logger?: Logger,
  ) {}

  async load(): Promise<void> {
    const read = await readJsonFile(this.file, fileSchema);
    if (read.kind === 'ok') this.grants = read.value;
    else if (read.kind === 'invalid') this.logger?.warn(`ignoring unreadable approvals file ${this.file}; every tool will ask again`, { error: read.error });
  }


  lookup(tool: CatalogTool): GrantLookup {
    // Hash the definition only when a grant needs comparing: most calls have none.
    const byTool = own(own(this.grants.tools, tool.server), tool.name);
    if (byTool) {
      return byTool.fingerprint === fingerprintOf(tool) ? { kind: 'granted', scope: 'tool' } : { kind: 'changed', scope: 'tool', approved: byTool.definition };
    }
    const serverTools = own(this.grants.servers, tool.server);
    if (!serverTools) return { kind: 'none' };
    const byServer = own(serverTools, tool.name);
    if (!byServer) return { kind: 'new_tool_on_server' };
    return byServer.fingerprint === fingerprintOf(tool) ? { kind: 'granted', scope: 'server' } : { kind: 'changed', scope: 'server', approved: byServer.definition };
  }

  async grantTool(tool: CatalogTool): Promise<void> {
    put(ownOrNew(this.grants.tools, tool.server), tool.name, approved(tool));
    await this.save();
  }

  /**
   * A first server grant vouches for the server's tools as they are now; later grants (after a
   * change or a new tool) add only the tool the user just looked at.
   */
  async grantServer(tool: CatalogTool, serverToolsNow: CatalogTool[]): Promise<void> {
    let serverTools = own(this.grants.servers, tool.server);
    if (!serverTools) {
      // fromEntries defines keys, so a tool named "__proto__" stays a plain key.
      serverTools = Object.fromEntries(serverToolsNow.filter((t) => t.server === tool.server).map((t) => [t.name, approved(t)]));
      put(this.grants.servers, tool.server, serverTools);
    }
    put(serverTools, tool.name, approved(tool));
    // A tool grant for a changed definition would shadow the fresh server grant.
    const toolGrants = own(this.grants.tools, tool.server);
    if (toolGrants && Object.hasOwn(toolGrants, tool.name)) delete toolGrants[tool.name];
    await this.save();
  }

  /** Forget every grant for a server (the server was removed, or the user revoked it). */
  async revokeServer(server: string): Promise<void> {
    if (Object.hasOwn(this.grants.tools, server)) delete this.grants.tools[server];
    if (Object.hasOwn(this.grants.servers, server)) delete this.grants.servers[server];
    await this.save();
  }

  private save(): Promise<void> {
    const text = JSON.stringify(this.grants, null, 2);
    this.writing = this.writing.catch(() => undefined).then(() => writeFileAtomic(this.file, text));
    return this.writing;
  }
}

/**
 * Server and tool names are keys of plain objects here: read and write own entries only, so a server
 * called "constructor" or a tool called "__proto__" or "toString" is a name, never the object's machinery.
 */
function own<T>(record: Record<string, T> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
function put<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
}
function ownOrNew<T>(record: Record<string, Record<string, T>>, key: string): Record<string, T> {
  const found = own(record, key);
  if (found) return found;
  const fresh: Record<string, T> = {};
  put(record, key, fresh);
  return fresh;
}

function approved(tool: CatalogTool): Approved {
  const definition = toolDefinition(tool);
  return { fingerprint: fingerprint(definition), definition };
}

/** A catalog tool object is immutable once listed, so its fingerprint is computed once. */
const fingerprints = new WeakMap<CatalogTool, string>();
function fingerprintOf(tool: CatalogTool): string {
  let print = fingerprints.get(tool);
  if (print === undefined) {
    print = fingerprint(toolDefinition(tool));
    fingerprints.set(tool, print);
  }
  return print;
}
