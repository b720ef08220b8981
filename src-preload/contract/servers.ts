/** Servers, tools and the app's status: snapshots, invokes and events. */
import { z } from 'zod';
import { empty, out, serverName } from './common';

export type ServerStateKind =
  | 'disabled'
  | 'trust_required'
  | 'connecting'
  | 'connected'
  | 'needs_auth'
  | 'error'
  | 'backing_off';

export type TransportKind = 'stdio' | 'http' | 'sse';

export interface ServerView {
  name: string;
  transport: TransportKind;
  /** Absolute path of the file that defines this server. */
  source: string;
  enabled: boolean;
  state: ServerStateKind;
  /** Human reason for the state, e.g. "command not found: npx (PATH searched: …)". */
  reason?: string;
  /** Epoch ms of the next reconnect attempt while backing_off. */
  nextAttemptAt?: number;
  toolCount: number;
  /** Same name in lower-priority sources, listed but never merged. */
  shadowed: string[];
}

export interface ConfigProblem {
  file: string;
  line?: number;
  column?: number;
  /** The server entry at fault, when the problem is one entry's. */
  server?: string;
  message: string;
}

export type StatusLevel = 'green' | 'amber' | 'red' | 'neutral';
export interface AggregateStatus {
  level: StatusLevel;
  /** e.g. "MCP 3/4", or "MCP off" / "No servers". */
  label: string;
  connected: number;
  enabled: number;
  needsAuth: number;
}

export interface ServersSnapshot {
  servers: ServerView[];
  problems: ConfigProblem[];
  status: AggregateStatus;
  configPath: string;
}

export interface ServerLogs {
  name: string;
  stderr: string[];
}

export interface ToolView {
  server: string;
  /** Namespaced, LLM-safe name: <server>__<tool>. */
  name: string;
  title?: string;
  description?: string;
  enabled: boolean;
  pending: boolean;
}

const byServer = z.object({ name: serverName }).strict();

export const serverInvokes = {
  listServers: { input: empty, output: out<ServersSnapshot>() },
  reconnectServer: { input: byServer, output: out<null>() },
  reconnectAll: { input: empty, output: out<null>() },
  setServerEnabled: { input: z.object({ name: serverName, enabled: z.boolean() }).strict(), output: out<null>() },
  serverLogs: { input: byServer, output: out<ServerLogs>() },
  listTools: { input: z.object({ server: serverName.optional() }).strict(), output: out<ToolView[]>() },
  openExternal: { input: z.object({ url: z.string().max(8192) }).strict(), output: out<null>() },
} as const;

export const serverEvents = {
  serversChanged: out<ServersSnapshot>(),
} as const;
