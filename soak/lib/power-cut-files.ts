import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Conversation } from '../../src-preload/contract/chat';
import { ApprovalStore, approvalsFile } from '../../src-main/core/approvals/approval-store';
import { ConversationStore, conversationsDir } from '../../src-main/core/chat/conversation-store';
import { readTextIfExists } from '../../src-main/core/config/atomic-file';
import { parseConfigText } from '../../src-main/core/config/parse-config-file';
import { serversFile } from '../../src-main/core/data-home';
import { ToolCache } from '../../src-main/core/mcp/tool-cache';

/** The files the power-cut soak writes: servers.json, a conversation, approvals.json, a tool cache entry. */
export const POWER_CUT_FILES = ['config', 'conversation', 'approvals', 'toolCache'] as const;
export type PowerCutFile = (typeof POWER_CUT_FILES)[number];

export const TOOL_CACHE_KEY = 'power-cut';
const CONVERSATION_ID = 'power-cut';

export function powerCutPaths(home: string) {
  return {
    config: serversFile(home),
    conversationDir: conversationsDir(home),
    conversation: join(conversationsDir(home), `${CONVERSATION_ID}.json`),
    approvals: approvalsFile(home),
    toolCache: join(home, 'cache', 'tools', `${TOOL_CACHE_KEY}.json`),
  };
}

/** Version n of each file's content; sizes vary with n so a torn write would show. */
export function soakConversation(n: number): Conversation {
  const messages = Array.from({ length: (n % 40) + 1 }, (_, i) => ({ role: 'user' as const, text: `message ${i} of version ${n} ${'·'.repeat(i * 7)}`, at: n }));
  return { id: CONVERSATION_ID, title: `version ${n}`, createdAt: 0, updatedAt: n, messageCount: messages.length, messages };
}

export function soakTool(n: number): Parameters<ApprovalStore['grantTool']>[0] {
  return { name: 'probe', server: 'soak', qualifiedName: 'soak__probe', enabled: true, pending: false, description: `v${n} ${'x'.repeat(n % 500)}`, inputSchema: { type: 'object' }, annotations: {} };
}

export function soakToolList(n: number): Tool[] {
  return Array.from({ length: (n % 30) + 1 }, (_, i) => ({ name: `tool-${i}`, description: `v${n}`, inputSchema: { type: 'object' as const } }));
}

/** What one file holds after a cut: its version (undefined = not written yet), or why it is damaged. */
export type FileState = { ok: true; version: number | undefined } | { ok: false; problem: string };

const versionIn = (text: string | undefined): number | undefined => {
  const match = text === undefined ? null : /^v(\d+)\b/.exec(text);
  return match ? Number(match[1]) : undefined;
};

/** Read every file with Switchboard's own readers; a file they reject, or whose content is not exactly some version n, is damaged. */
export async function readFiles(home: string): Promise<Record<PowerCutFile, FileState>> {
  const paths = powerCutPaths(home);
  return {
    config: await readConfig(paths.config),
    conversation: await readConversation(paths.conversationDir),
    approvals: await readApprovals(paths.approvals),
    toolCache: await readToolCache(home, paths.toolCache),
  };
}

/** The version each file is at; throws when one is damaged (the writer must not start on a damaged home). */
export async function readVersions(home: string): Promise<Record<PowerCutFile, number | undefined>> {
  const states = await readFiles(home);
  const versions = {} as Record<PowerCutFile, number | undefined>;
  for (const file of POWER_CUT_FILES) {
    const state = states[file];
    if (!state.ok) throw new Error(`${file}: ${state.problem}`);
    versions[file] = state.version;
  }
  return versions;
}

async function readConfig(path: string): Promise<FileState> {
  const text = await readTextIfExists(path);
  if (text === undefined) return { ok: true, version: undefined };
  const parsed = parseConfigText(text, { path, origin: 'switchboard', userWritten: true });
  if (parsed.invalid || parsed.problems.length > 0) return { ok: false, problem: parsed.problems.map((p) => p.message).join('; ') };
  const alpha = parsed.servers.find((s) => s.name === 'alpha');
  const version = alpha?.kind === 'stdio' ? versionIn(alpha.args[1]) : undefined;
  if (parsed.servers.length !== 1 || version === undefined) return { ok: false, problem: `servers.json holds ${JSON.stringify(parsed.servers.map((s) => s.name))}, not one "alpha" at some version` };
  return { ok: true, version };
}

async function readConversation(dir: string): Promise<FileState> {
  const store = new ConversationStore(dir);
  if (!existsSync(join(dir, `${CONVERSATION_ID}.json`))) return { ok: true, version: undefined };
  try {
    const conversation = await store.get(CONVERSATION_ID);
    const version = /^version (\d+)$/.exec(conversation.title);
    if (!version) return { ok: false, problem: `conversation title ${JSON.stringify(conversation.title)}` };
    const n = Number(version[1]);
    const expected = soakConversation(n);
    if (JSON.stringify(conversation.messages) !== JSON.stringify(expected.messages)) return { ok: false, problem: `conversation version ${n} has other messages than it was written with` };
    return { ok: true, version: n };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

async function readApprovals(path: string): Promise<FileState> {
  if (!existsSync(path)) return { ok: true, version: undefined };
  const warnings: string[] = [];
  const store = new ApprovalStore(path, { info: () => {}, warn: (message) => void warnings.push(message), error: () => {} });
  await store.load();
  if (warnings.length > 0) return { ok: false, problem: warnings.join('; ') };
  // The store accepted the file; which version it vouches for is in the definition it kept.
  const raw = JSON.parse(await readFile(path, 'utf8')) as { tools?: { soak?: { probe?: { definition?: { description?: string } } } } };
  const n = versionIn(raw.tools?.soak?.probe?.definition?.description);
  if (n === undefined || store.lookup(soakTool(n)).kind !== 'granted') return { ok: false, problem: 'approvals.json does not grant the probe tool at the version it names' };
  return { ok: true, version: n };
}

async function readToolCache(home: string, path: string): Promise<FileState> {
  if (!existsSync(path)) return { ok: true, version: undefined };
  const tools = await new ToolCache(home).read(TOOL_CACHE_KEY);
  const n = versionIn(tools?.[0]?.description);
  if (!tools || n === undefined) return { ok: false, problem: 'the tool cache entry is unreadable' };
  if (JSON.stringify(tools) !== JSON.stringify(soakToolList(n))) return { ok: false, problem: `the tool cache entry at version ${n} has other tools than it was written with` };
  return { ok: true, version: n };
}

/** Temp files an interrupted atomic write left beside its target (".<name>.<pid>.<random>.tmp"). */
export async function strayTempFiles(home: string): Promise<string[]> {
  const paths = powerCutPaths(home);
  const dirs = [home, paths.conversationDir, join(home, 'cache', 'tools')];
  const found: string[] = [];
  for (const dir of dirs) {
    const names = await readdir(dir).catch(() => [] as string[]);
    found.push(...names.filter((n) => n.endsWith('.tmp')).map((n) => join(dir, n)));
  }
  return found;
}
