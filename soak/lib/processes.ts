import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** One line of the process table, read from /proc (Linux: the soak runs where the product's servers run). */
export interface ProcessEntry {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** R, S, D, Z, …: a zombie (Z) has exited and only waits to be reaped. */
  state: string;
}

function readStat(pid: number): ProcessEntry | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between the directory listing and the read
  }
  // "pid (comm) state ppid pgrp session …": comm may hold spaces and parentheses, so cut at the last ")".
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]), sid: Number(fields[3]) };
}

export function processTable(): ProcessEntry[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** One environment variable of a running process (undefined when it has none or is gone). */
export function environmentValue(pid: number, name: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/environ`, 'utf8');
  } catch {
    return undefined;
  }
  const prefix = `${name}=`;
  return text.split('\0').find((entry) => entry.startsWith(prefix))?.slice(prefix.length);
}

/**
 * The server processes this process started, by the marker variable each server's config carries
 * (Switchboard passes a server's configured env to its child): marker value → pid.
 */
export function markedChildren(marker: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of processTable()) {
    if (entry.ppid !== process.pid || entry.state === 'Z') continue;
    const value = environmentValue(entry.pid, marker);
    if (value !== undefined) found.set(value, entry.pid);
  }
  return found;
}

/**
 * Every server process Switchboard starts leads its own session (detached), so whatever it
 * forks stays in that session. Sessions seen during the run are remembered here; after stop, any
 * live (non-zombie) process in one of them is an orphan.
 */
export class SpawnedSessions {
  private readonly sessions = new Set<number>();

  /** Record the sessions of this process's current children (call it often: killed servers are replaced). */
  sample(): void {
    for (const entry of processTable()) {
      if (entry.ppid === process.pid && entry.sid === entry.pid) this.sessions.add(entry.sid);
    }
  }

  add(sid: number): void {
    this.sessions.add(sid);
  }

  get count(): number {
    return this.sessions.size;
  }

  /** Live processes left in any recorded session; zombies are counted apart (they have exited). */
  leftovers(): { orphans: ProcessEntry[]; zombies: ProcessEntry[] } {
    const inSessions = processTable().filter((entry) => this.sessions.has(entry.sid));
    return { orphans: inSessions.filter((e) => e.state !== 'Z'), zombies: inSessions.filter((e) => e.state === 'Z') };
  }
}

/** Open file descriptors of this process. */
export function openFdCount(): number {
  return readdirSync('/proc/self/fd').length;
}

/**
 * This process's descriptors by kind ("socket", "pipe", "anon_inode:[eventfd]", a file's path), so a
 * growth can be told apart: a pooled connection is a socket, a watcher an inotify, a file left open its path.
 */
export function openFdKinds(): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed between the listing and the read (the listing's own descriptor, for one)
    }
    const kind = target.replace(/^(socket|pipe):\[\d+\]$/, '$1');
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}
