import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeFileAtomic } from '../config/atomic-file';
import type { CatalogTool } from '../../../src-preload/contract/tools';
import { AppFailure } from '../app-error';
import { approvalsLockedNow } from '../policy/approval-locks';
import { SET_BY_ORGANIZATION } from '../policy/policy-rules';
import { systemClock, type Clock, type Logger } from '../ports';
import type { GrantLookup } from './approval-policy';
import { fingerprint, toolDefinition, type ToolDefinition } from './tool-fingerprint';

const definitionSchema = z.object({
  tool: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: z.record(z.string(), z.unknown()),
});
/**
 * grantedAt: epoch ms of the decision; absent in files written before grants were dated.
 * source: the config file that defined the server when the person granted it; absent in files written before
 * grants were bound to it (those count for the person's own files only).
 */
const approvedSchema = z.object({ fingerprint: z.string(), definition: definitionSchema, grantedAt: z.number().optional(), source: z.string().optional() });
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
  grantedAt?: number;
  source?: string;
}

/** Where a server's entry is defined now: its file, and whether the person wrote it (their own servers.json, bundles.json). */
export interface ServerSource {
  path: string;
  userWritten: boolean;
}

/** One always-allow as the grants page lists it. */
export type StoredGrantView = { kind: 'tool'; server: string; tool: string; grantedAt?: number } | { kind: 'server'; server: string; tools: string[]; grantedAt?: number };

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
    private readonly clock: Clock = systemClock,
    /** The administrator's "always ask" (SECURITY X2): while it holds, no always-allow is written. */
    private readonly locked: () => boolean = approvalsLockedNow,
    /**
     * Binds each grant to the file that defined its server (SECURITY V1): a server that later takes the name —
     * from a project file, say — finds none. Without it (tests of the store alone) grants go by name.
     */
    private readonly sourceOf?: (server: string) => ServerSource | undefined,
  ) {}

  /** Whether a grant made for the server as defined then counts for the server as defined now. */
  private sameSource(grant: Approved, server: string): boolean {
    if (!this.sourceOf) return true;
    const now = this.sourceOf(server);
    if (!now) return false;
    return grant.source === undefined ? now.userWritten : grant.source === now.path;
  }

  private refuseWhenLocked(): void {
    if (this.locked()) throw new AppFailure('invalid_input', `every tool call asks (${SET_BY_ORGANIZATION}); nothing can be always allowed`);
  }

  async load(): Promise<void> {
    const read = await readJsonFile(this.file, fileSchema);
    if (read.kind === 'ok') this.grants = read.value;
    else if (read.kind === 'invalid') this.logger?.warn(`ignoring unreadable approvals file ${this.file}; every tool will ask again`, { error: read.error });
  }


  lookup(tool: CatalogTool): GrantLookup {
    // Hash the definition only when a grant needs comparing: most calls have none.
    const byTool = own(own(this.grants.tools, tool.server), tool.name);
    if (byTool && this.sameSource(byTool, tool.server)) {
      return byTool.fingerprint === fingerprintOf(tool) ? { kind: 'granted', scope: 'tool' } : { kind: 'changed', scope: 'tool', approved: byTool.definition };
    }
    const serverTools = this.serverGrant(tool.server);
    if (!serverTools) return { kind: 'none' };
    const byServer = own(serverTools, tool.name);
    if (!byServer) return { kind: 'new_tool_on_server' };
    return byServer.fingerprint === fingerprintOf(tool) ? { kind: 'granted', scope: 'server' } : { kind: 'changed', scope: 'server', approved: byServer.definition };
  }

  async grantTool(tool: CatalogTool): Promise<void> {
    this.refuseWhenLocked();
    put(ownOrNew(this.grants.tools, tool.server), tool.name, this.approved(tool));
    await this.save();
  }

  /**
   * A first server grant vouches for the server's tools as they are now; later grants (after a
   * change or a new tool) add only the tool the user just looked at.
   */
  async grantServer(tool: CatalogTool, serverToolsNow: CatalogTool[]): Promise<void> {
    this.refuseWhenLocked();
    let serverTools = this.serverGrant(tool.server);
    if (!serverTools) {
      // fromEntries defines keys, so a tool named "__proto__" stays a plain key.
      serverTools = Object.fromEntries(serverToolsNow.filter((t) => t.server === tool.server).map((t) => [t.name, this.approved(t)]));
      put(this.grants.servers, tool.server, serverTools);
    }
    put(serverTools, tool.name, this.approved(tool));
    // A tool grant for a changed definition would shadow the fresh server grant.
    const toolGrants = own(this.grants.tools, tool.server);
    if (toolGrants && Object.hasOwn(toolGrants, tool.name)) delete toolGrants[tool.name];
    await this.save();
  }

  /** The server's always-allow, if it was given to the server as it is defined now. */
  private serverGrant(server: string): Record<string, Approved> | undefined {
    const serverTools = own(this.grants.servers, server);
    if (!serverTools) return undefined;
    // Every tool of one server grant was vouched for together, so the first tells the file.
    for (const tool in serverTools) return this.sameSource(serverTools[tool]!, server) ? serverTools : undefined;
    return serverTools;
  }

  /** Forget every grant for a server (the server was removed, or the user revoked it). */
  async revokeServer(server: string): Promise<void> {
    const had = Object.hasOwn(this.grants.tools, server) || Object.hasOwn(this.grants.servers, server);
    if (!had) return;
    delete this.grants.tools[server];
    delete this.grants.servers[server];
    await this.save();
  }

  /** Every always-allow, tools then servers; a server's date is when it was first always-allowed. */
  list(): StoredGrantView[] {
    const tools = Object.entries(this.grants.tools).flatMap(([server, byTool]) =>
      Object.entries(byTool).map(([tool, grant]): StoredGrantView => ({ kind: 'tool', server, tool, ...dated(grant.grantedAt) })),
    );
    const servers = Object.entries(this.grants.servers).map(([server, byTool]): StoredGrantView => {
      const dates = Object.values(byTool).flatMap((g) => (g.grantedAt === undefined ? [] : [g.grantedAt]));
      return { kind: 'server', server, tools: Object.keys(byTool).sort(), ...dated(dates.length ? Math.min(...dates) : undefined) };
    });
    return [...tools, ...servers];
  }

  /** Forget one tool's always-allow; false when there was none. */
  async revokeTool(server: string, tool: string): Promise<boolean> {
    const byTool = own(this.grants.tools, server);
    if (!byTool || !Object.hasOwn(byTool, tool)) return false;
    delete byTool[tool];
    if (Object.keys(byTool).length === 0) delete this.grants.tools[server];
    await this.save();
    return true;
  }

  /** Forget a server's always-allow (its tools' own grants stay); false when there was none. */
  async revokeServerGrant(server: string): Promise<boolean> {
    if (!Object.hasOwn(this.grants.servers, server)) return false;
    delete this.grants.servers[server];
    await this.save();
    return true;
  }

  private approved(tool: CatalogTool): Approved {
    const definition = toolDefinition(tool);
    const source = this.sourceOf?.(tool.server)?.path;
    // A grant with no file would count as one from before the binding: for a server no file defines now, none is written.
    if (this.sourceOf && source === undefined) throw new AppFailure('not_found', `server "${tool.server}" is no longer configured; nothing was always allowed`);
    return { fingerprint: fingerprint(definition), definition, grantedAt: this.clock.now(), ...(source === undefined ? {} : { source }) };
  }

  private save(): Promise<void> {
    const text = JSON.stringify(this.grants, null, 2);
    this.writing = this.writing.catch(() => undefined).then(() => writeFileAtomic(this.file, text));
    return this.writing;
  }
}

const dated = (grantedAt: number | undefined) => (grantedAt === undefined ? {} : { grantedAt });

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
