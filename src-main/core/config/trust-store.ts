import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { systemClock, type Clock } from '../ports';
import { readTextIfExists, writeFileAtomic } from './atomic-file';
import { sortedEntries, type ServerConfig } from './server-config';

/** Approvals of servers, local or remote, from files the user did not write through Switchboard (SECURITY P1). */
export const trustFile = (home: string): string => join(home, 'trust.json');

export interface TrustApproval {
  name: string;
  sourcePath: string;
  /** trustHash() of the config as approved; any change to what runs makes it stale. */
  hash: string;
  approvedAt: number;
}

/**
 * SHA-256 of everything that decides what runs or what is reached: command, args, env and cwd, or URL,
 * headers and transport; and the file it came from. Taken over the config as written (before ${...}
 * expansion), so every variable a value reads is covered: the approval is for what the person saw (SECURITY P1, V1).
 */
export function trustHash(config: ServerConfig): string {
  const fields =
    config.kind === 'stdio'
      ? { command: config.command, args: config.args, env: sortedEntries(config.env), cwd: config.cwd ?? null, source: config.source.path }
      : { kind: 'remote', url: config.url, headers: sortedEntries(config.headers), transport: config.transport, source: config.source.path };
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

const key = (name: string, sourcePath: string): string => JSON.stringify([name, sourcePath]);

export class TrustStore {
  private readonly approvals = new Map<string, TrustApproval>();
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly path: string,
    private readonly clock: Clock,
    /** Why trust.json could not be read, if it could not; the store then starts empty (fail closed). */
    readonly loadProblem?: string,
  ) {}

  static async open(home: string, clock: Clock = systemClock): Promise<TrustStore> {
    const path = trustFile(home);
    const text = await readTextIfExists(path);
    const approvals = text === undefined ? [] : parseApprovals(text);
    const store = new TrustStore(path, clock, approvals === undefined ? `${path} is not a valid trust file; every approval must be given again` : undefined);
    for (const approval of approvals ?? []) store.approvals.set(key(approval.name, approval.sourcePath), approval);
    return store;
  }

  /** Every server, local or remote, from a file the user did not write through Switchboard waits for approval. */
  needsTrust(config: ServerConfig): boolean {
    return !config.source.userWritten;
  }

  /** May this server be started? True when it needs no trust, or its current launch fields were approved. */
  isTrusted(config: ServerConfig): boolean {
    if (!this.needsTrust(config)) return true;
    return this.approvals.get(key(config.name, config.source.path))?.hash === trustHash(config);
  }

  async approve(config: ServerConfig): Promise<TrustApproval | undefined> {
    if (!this.needsTrust(config)) return undefined;
    const approval: TrustApproval = { name: config.name, sourcePath: config.source.path, hash: trustHash(config), approvedAt: this.clock.now() };
    this.approvals.set(key(approval.name, approval.sourcePath), approval);
    await this.persist();
    return approval;
  }

  /** Forget an approval; false when there was none. */
  async revoke(name: string, sourcePath: string): Promise<boolean> {
    if (!this.approvals.delete(key(name, sourcePath))) return false;
    await this.persist();
    return true;
  }

  list(): TrustApproval[] {
    return [...this.approvals.values()].map((a) => ({ ...a }));
  }

  /** One write at a time, each with the state at its turn, so concurrent approvals are never lost. */
  private persist(): Promise<void> {
    const write = this.writes.then(() => writeFileAtomic(this.path, `${JSON.stringify({ approvals: this.list() }, null, 2)}\n`));
    this.writes = write.catch(() => undefined);
    return write;
  }
}

function parseApprovals(text: string): TrustApproval[] | undefined {
  try {
    const approvals = (JSON.parse(text) as { approvals?: unknown }).approvals;
    if (!Array.isArray(approvals)) return undefined;
    return approvals.filter(
      (a): a is TrustApproval =>
        typeof a === 'object' && a !== null && typeof a.name === 'string' && typeof a.sourcePath === 'string' && typeof a.hash === 'string' && typeof a.approvedAt === 'number',
    );
  } catch {
    return undefined;
  }
}
