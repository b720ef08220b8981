/** Editing servers.json, project folders, imports from Claude Desktop, and trust for project servers. */
import { z } from 'zod';
import { empty, out, serverName } from './common';
import type { ConfigProblem } from './servers';

/**
 * An env or header value shown in place of a literal value: secrets never cross back to the UI.
 * Sent back unchanged in an update, it means "keep the stored value".
 */
export const MASKED_VALUE = '••••••';

/** One server entry as written in JSON (command/args/env/cwd or url/headers/transport, plus shared fields). */
export type ServerEntry = Record<string, unknown>;

export interface ServerEntryView {
  name: string;
  /** Absolute path of the file that defines it. */
  source: string;
  origin: 'switchboard' | 'bundle' | 'project' | 'claude-desktop' | 'vscode' | 'cursor';
  /** Only servers.json entries can be edited from Switchboard; project files are the project's. */
  editable: boolean;
  /** The entry with env and header values masked unless they are ${...} references. */
  entry: ServerEntry;
}

export interface ProjectList {
  projects: string[];
}

export interface ImportPreviewView {
  path: string;
  found: boolean;
  toAdd: { name: string; entry: ServerEntry }[];
  alreadyPresent: string[];
  problems: ConfigProblem[];
}

export interface TrustApprovalView {
  name: string;
  sourcePath: string;
  approvedAt: number;
}

export interface AddedServers {
  added: string[];
}

const entry = z.record(z.string(), z.unknown(), 'the server entry must be an object');
const byServer = z.object({ name: serverName }).strict();
const folder = z.object({ path: z.string().min(1, 'the folder path is empty').max(4096, 'the folder path is too long') }).strict();

export const configInvokes = {
  getServerEntry: { input: byServer, output: out<ServerEntryView>() },
  addServer: { input: z.object({ name: serverName, entry }).strict(), output: out<null>() },
  updateServer: { input: z.object({ name: serverName, entry }).strict(), output: out<null>() },
  removeServer: { input: byServer, output: out<null>() },
  /** A pasted Claude Desktop snippet: {"mcpServers": {...}} or {"name": {...}}; all entries or none. */
  pasteServers: { input: z.object({ text: z.string().max(1_000_000, 'the pasted text is over 1 MB') }).strict(), output: out<AddedServers>() },
  previewClaudeDesktopImport: { input: empty, output: out<ImportPreviewView>() },
  /** Copies the named entries (all of the preview's when omitted) into servers.json. */
  importClaudeDesktop: { input: z.object({ names: z.array(serverName).optional() }).strict(), output: out<AddedServers>() },
  listProjects: { input: empty, output: out<ProjectList>() },
  addProject: { input: folder, output: out<ProjectList>() },
  removeProject: { input: folder, output: out<ProjectList>() },
  listTrust: { input: empty, output: out<TrustApprovalView[]>() },
  approveTrust: { input: byServer, output: out<null>() },
  /** sourcePath picks an approval listed by listTrust whose server is gone from the config. */
  revokeTrust: { input: z.object({ name: serverName, sourcePath: z.string().min(1).max(4096).optional() }).strict(), output: out<null>() },
} as const;
