/** Editing servers.json, project folders, imports from other apps, and trust for project servers. */
import { z } from 'zod';
import { empty, out, serverName } from './common';
import type { ConfigProblem } from './servers';

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

/** Apps whose user-level MCP config Switchboard can import from. */
export const IMPORT_CLIENTS = ['claude-desktop', 'cursor', 'vscode'] as const;
export type ImportClient = (typeof IMPORT_CLIENTS)[number];

export interface ImportPreviewView {
  client: ImportClient;
  path: string;
  found: boolean;
  /** importAs is the name it takes in servers.json: its own, or a free one when that is taken. */
  toAdd: { name: string; importAs: string; entry: ServerEntry; inputs: string[] }[];
  /** Entries that cannot be imported as they are, with the reason (an unknown ${…}, a missing folder, a bad entry). */
  refused: { name: string; reason: string }[];
  /** VS Code inputs the entries use: asked once; a password one goes to the keychain. */
  inputs: { id: string; description: string; password: boolean }[];
  /** Some entry uses ${workspaceFolder}: give the project folder it stands for. */
  needsFolder: boolean;
  problems: ConfigProblem[];
}

export interface TrustApprovalView {
  name: string;
  sourcePath: string;
  approvedAt: number;
  /** Approved as a bundle Switchboard installed (bundles.json), not as a project's server. */
  bundle: boolean;
}

export interface AddedServers {
  added: string[];
}

const entry = z.record(z.string(), z.unknown(), 'the server entry must be an object');
const byServer = z.object({ name: serverName }).strict();
const folderPath = z.string().min(1, 'the folder path is empty').max(4096, 'the folder path is too long');
const folder = z.object({ path: folderPath }).strict();
const importClient = z.enum(IMPORT_CLIENTS, 'client must be "claude-desktop", "cursor" or "vscode"');

export const configInvokes = {
  getServerEntry: { input: byServer, output: out<ServerEntryView>() },
  addServer: { input: z.object({ name: serverName, entry }).strict(), output: out<null>() },
  updateServer: { input: z.object({ name: serverName, entry }).strict(), output: out<null>() },
  removeServer: { input: byServer, output: out<null>() },
  /** A pasted Claude Desktop snippet: {"mcpServers": {...}} or {"name": {...}}; all entries or none. */
  pasteServers: { input: z.object({ text: z.string().max(1_000_000, 'the pasted text is over 1 MB') }).strict(), output: out<AddedServers>() },
  /** What an import from another app's user-level config would add; reads, writes nothing. */
  previewImport: { input: z.object({ client: importClient, workspaceFolder: folderPath.optional() }).strict(), output: out<ImportPreviewView>() },
  /** Copies the picked entries into servers.json, each under the name given; password answers go to the keychain. */
  importServers: {
    input: z
      .object({
        client: importClient,
        items: z.array(z.object({ name: z.string().min(1).max(200), as: serverName }).strict()).max(500),
        answers: z.record(z.string().max(200), z.string().max(10_000)).optional(),
        workspaceFolder: folderPath.optional(),
      })
      .strict(),
    output: out<AddedServers>(),
  },
  listProjects: { input: empty, output: out<ProjectList>() },
  addProject: { input: folder, output: out<ProjectList>() },
  removeProject: { input: folder, output: out<ProjectList>() },
  listTrust: { input: empty, output: out<TrustApprovalView[]>() },
  approveTrust: { input: byServer, output: out<null>() },
  /** sourcePath picks an approval listed by listTrust whose server is gone from the config. */
  revokeTrust: { input: z.object({ name: serverName, sourcePath: z.string().min(1).max(4096).optional() }).strict(), output: out<null>() },
} as const;
