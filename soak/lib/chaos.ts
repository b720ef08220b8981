import type { McpManager } from '../../src-main/core/mcp/mcp-manager';
import { MARKER, type Fleet } from './fleet';
import { markedChildren } from './processes';

/** One SIGKILL of a stdio server and how (and whether) the server came back. */
export interface KillRecord {
  server: string;
  pid: number;
  atMs: number;
  /** From the kill until the server was connected again (its backoff did it); undefined = never. */
  recoveredMs?: number;
  /** The state it was left in when it did not come back. */
  stuck?: string;
}

/** One time the streamable HTTP server ended its sessions, and when a call worked again. */
export interface DropRecord {
  atMs: number;
  /** Sessions the server ended. */
  sessions: number;
  recoveredMs?: number;
  stuck?: string;
}

export interface ChaosPlan {
  /** SIGKILL the next victim this often (0 = never). */
  killEveryMs: number;
  /** Have the streamable HTTP server end its sessions this often (0 = never). */
  dropEveryMs: number;
}

const RECOVERY_LIMIT_MS = 60_000;
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * The chaos beside the calls: every few seconds one victim's process is SIGKILLed (the victims in
 * turn, so none reaches the crash-loop limit), now and then the HTTP server drops its sessions, and each
 * disturbance is followed until the server works again.
 */
export class Chaos {
  readonly kills: KillRecord[] = [];
  readonly drops: DropRecord[] = [];
  readonly skipped: string[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly following: Promise<void>[] = [];
  private next = 0;
  private readonly started = performance.now();

  constructor(
    private readonly manager: McpManager,
    private readonly fleet: Fleet,
    private readonly plan: ChaosPlan,
  ) {}

  start(): void {
    if (this.plan.killEveryMs > 0 && this.fleet.named('victim').length > 0) this.timers.push(setInterval(() => this.killOne(), this.plan.killEveryMs));
    if (this.plan.dropEveryMs > 0 && this.fleet.named('session-drop').length > 0) {
      this.timers.push(setInterval(() => this.following.push(this.dropSessions()), this.plan.dropEveryMs));
    }
  }

  /** Stop disturbing and wait until every disturbed server has come back (or its limit passed). */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    await Promise.all(this.following);
  }

  /** SIGKILL the next victim now (the chaos timer does this; the short soak calls it directly). */
  killOne(): void {
    const victims = this.fleet.named('victim');
    const server = victims[this.next++ % victims.length]!;
    const pid = markedChildren(MARKER).get(server);
    if (pid === undefined || this.manager.status(server)?.state.kind !== 'connected') {
      this.skipped.push(`${server}: not connected at its turn (${this.manager.status(server)?.state.kind ?? 'gone'})`);
      return;
    }
    process.kill(pid, 'SIGKILL');
    const record: KillRecord = { server, pid, atMs: performance.now() - this.started };
    this.kills.push(record);
    this.following.push(this.followKill(record));
  }

  private async followKill(record: KillRecord): Promise<void> {
    const killedAt = performance.now();
    // First the manager notices (state leaves connected, or a new process is already up), then it reconnects.
    for (;;) {
      const state = this.manager.status(record.server)?.state;
      const pid = markedChildren(MARKER).get(record.server);
      if (state?.kind === 'connected' && pid !== undefined && pid !== record.pid) {
        record.recoveredMs = performance.now() - killedAt;
        return;
      }
      if (state?.kind === 'error' || performance.now() - killedAt > RECOVERY_LIMIT_MS) {
        record.stuck = state ? `${state.kind}: ${state.reason}` : 'gone';
        return;
      }
      await sleep(50);
    }
  }

  async dropSessions(): Promise<void> {
    const server = this.fleet.named('session-drop')[0]!;
    const sessions = await this.fleet.dropHttpSessions();
    const droppedAt = performance.now();
    const record: DropRecord = { atMs: droppedAt - this.started, sessions };
    this.drops.push(record);
    // A probe call as a user would make: the first after the drop meets the lost session.
    for (;;) {
      const worked = await this.manager.callServerTool(server, 'echo', { message: 'probe' }).then(
        () => true,
        () => false,
      );
      if (worked) {
        record.recoveredMs = performance.now() - droppedAt;
        return;
      }
      const state = this.manager.status(server)?.state;
      if (state?.kind === 'error' || performance.now() - droppedAt > RECOVERY_LIMIT_MS) {
        record.stuck = state ? `${state.kind}: ${state.reason}` : 'gone';
        return;
      }
      await sleep(250);
    }
  }
}
