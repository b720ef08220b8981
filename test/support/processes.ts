import { readdir, readFile } from 'node:fs/promises';

/** Process ids whose command line holds `marker` as one argument: which server processes run right now (Linux: /proc). */
export async function pidsWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.split('\0').includes(marker)) pids.push(Number(entry));
  }
  return pids;
}
