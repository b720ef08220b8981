/**
 * THE contract between the UI and the main process. Main parses every inbound payload
 * with these schemas; the renderer imports types only. Errors cross as Result values.
 * Method and event names are fixed here: the preload exposes one named function each,
 * never a generic invoke or on(channel).
 */
import { z } from 'zod';

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };
export interface AppError {
  code: ErrorCode;
  message: string;
}
export type ErrorCode =
  | 'invalid_input'
  | 'forbidden_sender'
  | 'not_found'
  | 'conflict'
  | 'unavailable'
  | 'internal';

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (code: ErrorCode, message: string): Result<never> => ({ ok: false, error: { code, message } });

// ---- Snapshots: the only shapes that leave main (serializable, no secrets). ----

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

// ---- Inbound payload schemas. ----

export const serverName = z
  .string()
  .min(1, 'server name is empty')
  .max(100, 'server name is over 100 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'server name may use only letters, digits, "_", "." and "-"');

const empty = z.object({}).strict();
const byServer = z.object({ name: serverName }).strict();

/** Type-only marker for an output; main builds these, so they are not parsed. */
const out = <T>() => undefined as unknown as T;

export const invokes = {
  listServers: { input: empty, output: out<ServersSnapshot>() },
  reconnectServer: { input: byServer, output: out<null>() },
  reconnectAll: { input: empty, output: out<null>() },
  setServerEnabled: { input: z.object({ name: serverName, enabled: z.boolean() }).strict(), output: out<null>() },
  serverLogs: { input: byServer, output: out<ServerLogs>() },
  listTools: { input: z.object({ server: serverName.optional() }).strict(), output: out<ToolView[]>() },
  openExternal: { input: z.object({ url: z.string().max(8192) }).strict(), output: out<null>() },
} as const;

export const events = {
  serversChanged: out<ServersSnapshot>(),
} as const;

export type InvokeName = keyof typeof invokes;
export type EventName = keyof typeof events;
export type InvokeInput<K extends InvokeName> = z.input<(typeof invokes)[K]['input']>;
export type InvokeOutput<K extends InvokeName> = (typeof invokes)[K]['output'];
export type EventPayload<K extends EventName> = (typeof events)[K];

/** IPC channel for an invoke or event; one place so shell and preload cannot drift. */
export const invokeChannel = (name: InvokeName): string => `switchboard:${name}`;
export const eventChannel = (name: EventName): string => `switchboard:event:${name}`;

/** Subscribe function name for an event: serversChanged -> onServersChanged. */
export type EventSubscriberName<K extends EventName> = `on${Capitalize<K>}`;
export const subscriberName = <K extends EventName>(name: K): EventSubscriberName<K> =>
  `on${name[0]!.toUpperCase()}${name.slice(1)}` as EventSubscriberName<K>;

export type Api = {
  [K in InvokeName]: (input: InvokeInput<K>) => Promise<Result<InvokeOutput<K>>>;
} & {
  [K in EventName as EventSubscriberName<K>]: (listener: (payload: EventPayload<K>) => void) => () => void;
};

/** What main implements: one handler per invoke. A missing one is a compile error. */
export type Handlers = {
  [K in InvokeName]: (input: z.output<(typeof invokes)[K]['input']>) => Promise<InvokeOutput<K>>;
};

/** Parse an inbound payload against the contract; the error names the method and the field. */
export function parseInput<K extends InvokeName>(name: K, payload: unknown): Result<z.output<(typeof invokes)[K]['input']>> {
  const parsed = invokes[name].input.safeParse(payload ?? {});
  if (parsed.success) return ok(parsed.data as z.output<(typeof invokes)[K]['input']>);
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? ` at "${issue.path.join('.')}"` : '';
  return fail('invalid_input', `${name}: invalid payload${where}: ${issue.message}`);
}

export const isInvokeName = (name: string): name is InvokeName => Object.hasOwn(invokes, name);
