import { readFileSync, statSync, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { policySchema, type Policy } from './policy-schema';

/** Where an administrator puts the policy; SWITCHBOARD_POLICY names another file (tests, managed images). */
export function policyPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env.SWITCHBOARD_POLICY?.trim();
  if (override) return override;
  if (platform === 'darwin') return '/Library/Application Support/Switchboard/policy.json';
  if (platform === 'win32') return join(env.ProgramData || 'C:\\ProgramData', 'Switchboard', 'policy.json');
  return '/etc/switchboard/policy.json';
}

/**
 * The policy as it stands on disk (SECURITY X2): none (no file), a valid one, or broken — and broken
 * refuses everything the policy governs (fail closed), with the reason, never a half-read policy.
 */
export type PolicyState =
  | { kind: 'none' }
  | { kind: 'active'; path: string; policy: Policy }
  | { kind: 'broken'; path: string; reason: string };

export async function readPolicy(path: string = policyPath()): Promise<PolicyState> {
  try {
    return parsePolicy(path, await readFile(path, 'utf8'));
  } catch (error) {
    return unreadable(path, error);
  }
}

/** The last file read synchronously, by what its stat said then. */
let lastRead: { path: string; ino: number; size: number; mtimeMs: number; ctimeMs: number; state: PolicyState } | undefined;

/**
 * The same, for what is decided synchronously (the servers view, every tool call's approval): never stale —
 * a stat each time, and the file read again whenever it changed — but not a read and a parse per call
 * (with no policy file, a read that fails cost ~35 µs of a ~300 µs tool call).
 */
export function readPolicySync(path: string = policyPath()): PolicyState {
  let stat: Stats | undefined;
  try {
    stat = statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    return unreadable(path, error);
  }
  if (!stat) return { kind: 'none' };
  const { ino, size, mtimeMs, ctimeMs } = stat;
  const last = lastRead;
  if (last && last.path === path && last.ino === ino && last.size === size && last.mtimeMs === mtimeMs && last.ctimeMs === ctimeMs) return last.state;
  let state: PolicyState;
  try {
    state = parsePolicy(path, readFileSync(path, 'utf8'));
  } catch (error) {
    state = unreadable(path, error);
  }
  lastRead = { path, ino, size, mtimeMs, ctimeMs, state };
  return state;
}

function unreadable(path: string, error: unknown): PolicyState {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'none' };
  return { kind: 'broken', path, reason: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}` };
}

function parsePolicy(path: string, text: string): PolicyState {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { kind: 'broken', path, reason: `${path} is not valid JSON: ${(error as Error).message}` };
  }
  const parsed = policySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.map(String).join('.') || '(top level)';
    return { kind: 'broken', path, reason: `${path}: "${field}" ${issue.message}` };
  }
  return { kind: 'active', path, policy: parsed.data };
}
