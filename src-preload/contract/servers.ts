/** Servers, tools and the app's status: snapshots, invokes and events. */
import { z } from 'zod';
import { empty, out, serverName, type Diagnosis } from './common';
import type { TextFlag } from './chat';
import type { ToolBudgetView } from './tool-budget';
import type { CatalogTool } from './tools';

/** A tool as the tools panel lists it: the catalog entry and main's poisoning flags on its text (SECURITY A2). */
export type ToolListing = CatalogTool & {
  flags: TextFlag[];
  /** Schema tokens this tool costs on every turn it is offered to the model. */
  tokens: number;
  /** Always loaded for the model, by this tool's own pin or its server's. */
  pinned: boolean;
  /** Pinned by its server's pin (the tool's own pin cannot undo that). */
  serverPinned: boolean;
};

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
  /** Why it is not connected, as a class and a fix (absent while connected, starting or switched off). */
  diagnosis?: Diagnosis;
  /** Epoch ms of the next reconnect attempt while backing_off. */
  nextAttemptAt?: number;
  /** A failed local server's last stderr lines (the diagnosis's "below" when it died starting). */
  stderrTail?: string[];
  toolCount: number;
  /** The tools shown come from the cache; the server has not answered yet. */
  toolsPending?: boolean;
  /** Same name in lower-priority sources, listed but never merged. */
  shadowed: string[];
  /** Schema tokens of this server's enabled tools the model may see. */
  schemaTokens: number;
  /** Every tool of this server is always loaded for the model. */
  pinned: boolean;
  /** OAuth applies (the server asked for sign-in, or holds one): only then are Sign in / Sign out offered. */
  oauth: boolean;
  /** A local server's OS sandbox (SECURITY X1); absent for remote servers. */
  sandbox?: SandboxView;
  /** While it waits for approval: every variable and secret its entry reads, field by field (SECURITY V1). */
  reads?: EntryRead[];
}

/** A local server's sandbox as the row and the trust card show it. */
export interface SandboxView {
  /** on: sandboxed; off: runs with the person's rights; unavailable: asked for, but this OS has no sandbox. */
  status: 'on' | 'off' | 'unavailable';
  /** The administrator's policy requires the sandbox ("set by your organization"). */
  setByOrganization: boolean;
  /** Plain words for a platform without a sandbox ("not sandboxed: Windows has …"). */
  note?: string;
  /** Folders the person gave it: in its settings, its arguments, the projects opened (roots), its working folder. */
  grants: { path: string; access: 'read' | 'write'; from: 'setting' | 'argument' | 'root' | 'working folder' | 'package' | 'toolchain' }[];
  /** Hosts it may reach; none means no network at all. */
  domains: string[];
  /** The refusal that stopped it ("blocked by the sandbox: read ~/.netrc"); Allow grants it. */
  denial?: { kind: 'read' | 'write' | 'connect'; text: string };
}

/** One `${…}` in a server entry: `field` is where it sits (args[1], headers.Authorization). */
export interface EntryRead {
  field: string;
  kind: 'variable' | 'secret' | 'command';
  name: string;
}

export interface ConfigProblem {
  file: string;
  line?: number;
  column?: number;
  /** The server entry at fault, when the problem is one entry's. */
  server?: string;
  message: string;
  /** Not a fault: something was ignored on purpose and everything else loaded. Never counted as a problem. */
  note?: true;
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
  toolBudget: ToolBudgetView;
}

export interface ServerLogs {
  name: string;
  stderr: string[];
}


export interface ResourceView {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface ResourceTemplateView {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** One item of resources/read; text or base64 blob. */
export interface ResourceContentView {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

export interface PromptView {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments: { name: string; description?: string; required: boolean }[];
}

export interface PromptMessageView {
  role: 'user' | 'assistant';
  /** Text of a text part; other parts are described in brackets. */
  text: string;
}

export interface PromptResultView {
  description?: string;
  messages: PromptMessageView[];
}

const byServer = z.object({ name: serverName }).strict();
const toolName = z.string().min(1).max(200);
const resourceUri = z.string().min(1).max(8192);

export const serverInvokes = {
  listServers: { input: empty, output: out<ServersSnapshot>() },
  /** The window has drawn its first servers list: servers held back for it start (CoreDeps.holdServersForWindowMs). */
  windowShown: { input: empty, output: out<null>() },
  reconnectServer: { input: byServer, output: out<null>() },
  reconnectAll: { input: empty, output: out<null>() },
  setServerEnabled: { input: z.object({ name: serverName, enabled: z.boolean() }).strict(), output: out<null>() },
  /** Allow what the sandbox refused this server (main reads the refusal from the server's own state), then restart it. */
  allowSandboxDenial: { input: byServer, output: out<null>() },
  serverLogs: { input: byServer, output: out<ServerLogs>() },
  listTools: { input: z.object({ server: serverName.optional() }).strict(), output: out<ToolListing[]>() },
  setToolEnabled: { input: z.object({ qualifiedName: toolName, enabled: z.boolean() }).strict(), output: out<null>() },
  listResources: { input: byServer, output: out<{ resources: ResourceView[]; templates: ResourceTemplateView[] }>() },
  readResource: { input: z.object({ name: serverName, uri: resourceUri }).strict(), output: out<ResourceContentView[]>() },
  listPrompts: { input: z.object({ server: serverName.optional() }).strict(), output: out<PromptView[]>() },
  getPrompt: {
    input: z.object({ name: serverName, prompt: z.string().min(1).max(200), arguments: z.record(z.string(), z.string()).optional() }).strict(),
    output: out<PromptResultView>(),
  },
  /** The diagnostics zip (versions, OS, states, recent logs, config with secrets replaced), for the person to save. */
  exportDiagnostics: { input: empty, output: out<{ fileName: string; zipBase64: string }>() },
  openExternal: { input: z.object({ url: z.string().max(8192) }).strict(), output: out<null>() },
} as const;

export const serverEvents = {
  serversChanged: out<ServersSnapshot>(),
  /** Its log grew: a Logs tab open on it reads serverLogs again (the first line at once, a flood at most 5 times a second). */
  serverLogsChanged: out<{ name: string }>(),
} as const;
