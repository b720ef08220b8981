import { readdirSync, readFileSync } from 'node:fs';

/** Processes descending from this one whose command is bwrap: the sandbox's helpers, and their RSS. */
export function sandboxHelpers(): { count: number; rssMb: number } {
  const parents = new Map<number, { ppid: number; comm: string; rssKb: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, 'm').exec(status)?.[1] ?? '';
      parents.set(Number(entry), { ppid: Number(field('PPid')), comm: field('Name'), rssKb: Number(field('VmRSS') || 0) });
    } catch {
      // gone meanwhile
    }
  }
  const descends = (pid: number): boolean => {
    for (let p = parents.get(pid)?.ppid; p; p = parents.get(p)?.ppid) if (p === process.pid) return true;
    return false;
  };
  const helpers = [...parents].filter(([pid, info]) => info.comm === 'bwrap' && descends(pid));
  return { count: helpers.length, rssMb: helpers.reduce((sum, [, info]) => sum + info.rssKb, 0) / 1024 };
}
