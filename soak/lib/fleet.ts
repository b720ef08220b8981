import type { ChildProcess } from 'node:child_process';
import type { ServerConfig } from '../../src-main/core/config/server-config';
import { startEverything, stopChild } from '../../test/fixtures/servers/everything-http';
import { EVERYTHING, fixture, remote, stdio } from '../../test/integration/mcp/helpers';

/** Each stdio server's child carries this variable (its name), so the soak can find its pid. */
export const MARKER = 'SWITCHBOARD_SOAK_SERVER';

/** What the soak expects of a server's calls. */
export type Role =
  /** never disturbed: every call must succeed */
  | 'healthy'
  /** SIGKILLed now and then: a call succeeds, or fails with a clear error within its timeout */
  | 'victim'
  /** restarted now and then (its HTTP sessions vanish): like a victim */
  | 'session-drop'
  /** broken on purpose: every call fails with this exact message */
  | 'fault';

export interface SoakServer {
  config: ServerConfig;
  role: Role;
  /** For role "fault": the exact error every call must get. */
  expectedError?: string;
}

export interface FleetShape {
  /** server-everything over stdio that get SIGKILLed in turn. */
  victims: number;
  /** server-everything over stdio that are left alone. */
  healthyEverything: number;
  /** The fault fixtures: toolbox, noisy stdout, stubborn (ignores SIGTERM, forks), crash on start. */
  faultFixtures: boolean;
  /** server-everything over streamable HTTP (restarted now and then) and over SSE (left alone). */
  http: boolean;
}

export const FULL_FLEET: FleetShape = { victims: 5, healthyEverything: 1, faultFixtures: true, http: true };

/** Timeouts (seconds) of every soak server: a call to a killed server must end within these. */
export const CONNECT_TIMEOUT_S = 10;
export const TOOL_TIMEOUT_S = 10;

export interface HttpServer {
  mode: 'sse' | 'streamableHttp';
  url: string;
  port: number;
  child: ChildProcess;
  /** Sessions the server holds, from the lines it prints (opened: "Session initialized…", ended by a client's DELETE: "Received session termination request…"). */
  sessions: Set<string>;
}

async function startHttp(mode: HttpServer['mode']): Promise<HttpServer> {
  const sessions = new Set<string>();
  const onLine = (line: string) => {
    const opened = /Session initialized with ID: (\S+)/.exec(line);
    if (opened) sessions.add(opened[1]!);
    const closed = /Received session termination request for session (\S+)/.exec(line);
    if (closed) sessions.delete(closed[1]!);
  };
  return { mode, sessions, ...(await startEverything(mode, { onLine })) };
}

export class Fleet {
  private constructor(
    readonly servers: SoakServer[],
    private readonly http: HttpServer[],
  ) {}

  static async start(shape: FleetShape): Promise<Fleet> {
    const http: HttpServer[] = [];
    if (shape.http) {
      for (const mode of ['streamableHttp', 'sse'] as const) http.push(await startHttp(mode));
    }
    const limits = { timeout: CONNECT_TIMEOUT_S, toolTimeout: TOOL_TIMEOUT_S, approval: 'auto' as const };
    const marked = (name: string, args: string[]): ServerConfig => stdio(name, args, { ...limits, env: { [MARKER]: name } });
    const servers: SoakServer[] = [];
    for (let i = 0; i < shape.victims; i++) servers.push({ role: 'victim', config: marked(`victim-${i}`, [EVERYTHING, 'stdio']) });
    for (let i = 0; i < shape.healthyEverything; i++) servers.push({ role: 'healthy', config: marked(`everything-${i}`, [EVERYTHING, 'stdio']) });
    if (shape.faultFixtures) {
      servers.push({ role: 'healthy', config: marked('toolbox', [fixture('toolbox.mjs'), '--name', 'toolbox']) });
      servers.push({ role: 'healthy', config: marked('noisy', [fixture('noisy-stdout.mjs'), 'garbage']) });
      // stubborn writes its pids to the file named by its argument; the soak finds them by session instead.
      servers.push({ role: 'healthy', config: marked('stubborn', [fixture('stubborn.mjs'), '/dev/null']) });
      servers.push({
        role: 'fault',
        config: marked('crash', [fixture('crash-on-start.mjs')]),
        expectedError: 'server "crash" is not connected (error: exited with code 1 during initialize)',
      });
    }
    for (const server of http) {
      const name = server.mode === 'sse' ? 'http-sse' : 'http-streamable';
      servers.push({
        role: server.mode === 'sse' ? 'healthy' : 'session-drop',
        config: remote(name, server.url, { ...limits, transport: server.mode === 'sse' ? 'sse' : 'streamable-http' }),
      });
    }
    return new Fleet(servers, http);
  }

  get configs(): ServerConfig[] {
    return this.servers.map((s) => s.config);
  }

  named(role: Role): string[] {
    return this.servers.filter((s) => s.role === role).map((s) => s.config.name);
  }

  /**
   * The streamable HTTP server ends every session it holds (a DELETE for each, as a server that
   * evicts idle sessions or restarted would have forgotten them); it stays up. Returns how many.
   */
  async dropHttpSessions(): Promise<number> {
    const server = this.http.find((s) => s.mode === 'streamableHttp');
    if (!server) return 0;
    const ids = [...server.sessions];
    server.sessions.clear();
    await Promise.all(ids.map((id) => fetch(server.url, { method: 'DELETE', headers: { 'mcp-session-id': id } }).then((r) => r.body?.cancel())));
    return ids.length;
  }

  /** Sessions the streamable HTTP server still holds, waiting up to waitMs for them to reach 0 (its log lines trail). */
  async openHttpSessions(waitMs: number): Promise<number> {
    const server = this.http.find((s) => s.mode === 'streamableHttp');
    const deadline = Date.now() + waitMs;
    while (server && server.sessions.size > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    return server?.sessions.size ?? 0;
  }

  /** The harness's own HTTP server processes (not Switchboard's), for the orphan count to leave out. */
  httpPids(): number[] {
    return this.http.flatMap((s) => (s.child.pid ? [s.child.pid] : []));
  }

  async stopHttp(): Promise<void> {
    await Promise.all(this.http.map((s) => stopChild(s.child)));
  }
}
