import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src-main/core/config/atomic-file';

let dir: string;
beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'switchboard-atomic-'))));
afterEach(() => rm(dir, { recursive: true, force: true }));

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((done) => child.once('exit', done));
  return child.pid!;
}

describe('writeFileAtomic', () => {
  it('removes the temp files of writes a killed process left, and only those', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      const dead = await deadPid();
      const stale = `.servers.json.${dead}.0123456789ab.tmp`;
      const underWay = `.servers.json.${live.pid}.0123456789ab.tmp`;
      const otherFile = `.approvals.json.${dead}.0123456789ab.tmp`;
      for (const name of [stale, underWay, otherFile]) await writeFile(join(dir, name), '{"half": ');
      await writeFileAtomic(join(dir, 'servers.json'), '{"servers": {}}');
      expect((await readdir(dir)).sort()).toEqual([otherFile, underWay, 'servers.json'].sort());
      expect(await readFile(join(dir, 'servers.json'), 'utf8')).toBe('{"servers": {}}');
    } finally {
      live.kill('SIGKILL');
    }
  });
});
