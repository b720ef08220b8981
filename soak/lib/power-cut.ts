import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { tempHome } from '../../test/integration/mcp/helpers';
import { POWER_CUT_FILES, readFiles, strayTempFiles, type PowerCutFile } from './power-cut-files';
import { buildPowerCutWriter } from './writer-build';

export interface PowerCutFigures {
  cuts: number;
  /** Writes that finished before a cut, over all cuts. */
  writesDone: number;
  /** Cuts that landed while a write of that file was under way (begun, not done). */
  cutMidWrite: Record<PowerCutFile, number>;
  /** Files checked after the cuts (4 per cut). */
  filesChecked: number;
  /** Files that did not parse, or held neither the version before the write under way nor the one after it. */
  corrupted: string[];
  /** Temp files interrupted writes left beside their targets at the end. */
  strayTempFiles: number;
}

interface Journal {
  at: Partial<Record<PowerCutFile, number>>;
  begun: Partial<Record<PowerCutFile, number>>;
  done: Partial<Record<PowerCutFile, number>>;
  ready: boolean;
}

const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * SIGKILL a process in the middle of writing servers.json, a conversation, approvals.json and a
 * tool-cache entry (through the project's writers), `cuts` times on one data home; after each cut
 * every file must parse with the project's readers and hold the version before the write under way
 * or the one it was writing.
 */
export async function runPowerCut(cuts: number, random: () => number = Math.random): Promise<PowerCutFigures> {
  const { home, cleanup } = await tempHome();
  const figures: PowerCutFigures = {
    cuts: 0,
    writesDone: 0,
    cutMidWrite: { config: 0, conversation: 0, approvals: 0, toolCache: 0 },
    filesChecked: 0,
    corrupted: [],
    strayTempFiles: 0,
  };
  const writer = await buildPowerCutWriter();
  try {
    for (let cut = 0; cut < cuts; cut++) {
      const journal = await writeUntilCut(writer.path, home, 20 + random() * 300);
      figures.cuts++;
      const states = await readFiles(home);
      for (const file of POWER_CUT_FILES) {
        figures.filesChecked++;
        const state = states[file];
        const before = journal.done[file] ?? journal.at[file];
        const writing = journal.begun[file];
        if (writing !== undefined && writing !== journal.done[file]) figures.cutMidWrite[file]++;
        figures.writesDone += (journal.done[file] ?? journal.at[file] ?? 0) - (journal.at[file] ?? 0);
        if (!state.ok) figures.corrupted.push(`cut ${cut + 1}, ${file}: ${state.problem}`);
        // The writer says "at 0" for a file not written yet, which reads as no version.
        else if ((state.version ?? 0) !== (before ?? 0) && state.version !== writing) {
          figures.corrupted.push(`cut ${cut + 1}, ${file}: holds version ${state.version}, neither ${before} (before) nor ${writing} (being written)`);
        }
      }
      if (figures.corrupted.length > 0) break; // the home is damaged; later cuts would only repeat it
    }
    figures.strayTempFiles = (await strayTempFiles(home)).length;
    return figures;
  } finally {
    await writer.remove();
    await cleanup();
  }
}

/** One writer process, killed `afterMs` after its first finished write; its journal as far as it got. */
async function writeUntilCut(writer: string, home: string, afterMs: number): Promise<Journal> {
  const journal: Journal = { at: {}, begun: {}, done: {}, ready: false };
  const child = spawn(process.execPath, [writer, home], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('close', () => done()));
  const lines = createInterface({ input: child.stdout });
  const ready = new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      if (line === 'ready') return;
      const [file, what, n] = line.split(' ') as [PowerCutFile, 'at' | 'begin' | 'done', string];
      journal[what === 'begin' ? 'begun' : what][file] = Number(n);
      // The cut comes once writes are flowing (a slow start must not put every cut before the first write).
      if (what === 'done' && !journal.ready) {
        journal.ready = true;
        resolve();
      }
    });
  });
  await Promise.race([ready, exited]);
  if (!journal.ready) throw new Error(`the power-cut writer ended before writing: ${stderr.trim()}`);
  await sleep(afterMs);
  child.kill('SIGKILL');
  await exited; // every line it printed has been read once its stdout closed
  return journal;
}
