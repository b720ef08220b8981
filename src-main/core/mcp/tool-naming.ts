import { createHash } from 'node:crypto';

/** What LLM APIs accept as a tool name. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;
const HASH_CHARS = 8;

export interface ToolKey {
  server: string;
  /** The server's own tool name. */
  tool: string;
  /** The server's configured prefix, used instead of its name. */
  prefix?: string;
}

export interface NamedTool extends ToolKey {
  name: string;
  /** Why the name differs from `<server>__<tool>` (sanitized, shortened, collided). */
  note?: string;
}

export interface NameCollision {
  name: string;
  tools: ToolKey[];
}

/** `<server>__<tool>` with every character outside [a-zA-Z0-9_-] replaced by "_", at most 64 characters. */
export function baseToolName(key: ToolKey): string {
  const raw = `${key.prefix ?? key.server}__${key.tool}`;
  const safe = raw.replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe.length > MAX ? safe.slice(0, MAX) : safe;
}

const shortHash = (key: ToolKey) => createHash('sha256').update(`${key.server}\0${key.tool}`).digest('hex').slice(0, HASH_CHARS);

/**
 * Name every tool, deterministically whatever the order: when two tools would share a name,
 * each of them gets a short hash of (server, tool) as a suffix, and the collision is reported.
 * Nobody wins by being last.
 */
export function nameTools(keys: ToolKey[]): { named: NamedTool[]; collisions: NameCollision[] } {
  const bases = keys.map(baseToolName);
  const byBase = new Map<string, ToolKey[]>();
  keys.forEach((key, i) => byBase.set(bases[i]!, [...(byBase.get(bases[i]!) ?? []), key]));
  const collisions: NameCollision[] = [...byBase]
    .filter(([, group]) => group.length > 1)
    .map(([name, group]) => ({ name, tools: group.map(({ server, tool }) => ({ server, tool })) }));
  // Named in the order given, so callers can zip the result with their own list.
  const named = keys.map((key, i): NamedTool => {
    const base = bases[i]!;
    const group = byBase.get(base)!;
    const plain = `${key.prefix ?? key.server}__${key.tool}`;
    if (group.length === 1) {
      return { ...key, name: base, ...(base !== plain ? { note: `renamed from "${plain}" to fit ${TOOL_NAME_PATTERN.source}` } : {}) };
    }
    const others = group.filter((k) => k !== key).map((k) => `${k.server}/${k.tool}`).join(', ');
    return { ...key, name: `${base.slice(0, MAX - HASH_CHARS - 1)}_${shortHash(key)}`, note: `"${base}" is also the name of ${others}; suffixed to keep them apart` };
  });
  return { named, collisions };
}
