/**
 * Counts tokens away from the main process's memory, in a helper that exits when it has been idle a
 * moment. The tokenizer's 200K-entry vocabulary takes ~45–65 MB while loaded. A child process gives
 * all of it back when it ends; a worker thread gives back its heap but leaves ~20 MB in the thread's
 * malloc arena, so the thread is only where a child cannot start: in Electron, whose fuses forbid
 * running its binary as Node (SECURITY R7).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** Counts each text (one answer per text, in order). */
export type CountTexts = (texts: string[]) => Promise<number[]>;

const TOKENIZER_MODULE = 'gpt-tokenizer/encoding/o200k_base';

// CommonJS run by `node -e` (the tokenizer's path is argv[1]) or by a worker thread (workerData):
// no file of ours to ship or to find next to the bundle.
const COUNTER_SOURCE = `
const threads = require('node:worker_threads');
const port = threads.parentPort ?? { on: (event, listener) => process.on(event, listener), postMessage: (message) => process.send(message) };
const { countTokens } = require(threads.workerData?.tokenizer ?? process.argv[1]);
if (!threads.parentPort) process.on('disconnect', () => process.exit(0));
port.on('message', ({ id, texts }) => port.postMessage({ id, counts: texts.map((text) => countTokens(text)) }));
`;

/** In a packaged app the module is unpacked next to the archive (electron-builder asarUnpack): the helper reads it there. */
function tokenizerPath(): string {
  const inArchive = createRequire(import.meta.url).resolve(TOKENIZER_MODULE);
  const unpacked = inArchive.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
  return unpacked !== inArchive && existsSync(unpacked) ? unpacked : inArchive;
}

let inProcess: ((text: string) => number) | undefined;
/** Counted in this process: the fallback where no helper can start (the vocabulary then stays loaded), and the bench. */
export function countHere(texts: string[]): number[] {
  inProcess ??= (createRequire(import.meta.url)(TOKENIZER_MODULE) as { countTokens: (text: string) => number }).countTokens;
  return texts.map((text) => inProcess!(text));
}

type Answer = { id: number; counts: number[] };

/** A child process or a worker thread, as one shape. */
interface Helper {
  send(message: { id: number; texts: string[] }): void;
  stop(): Promise<void>;
}

function childHelper(node: string, onAnswer: (answer: Answer) => void, onEnd: () => void): Helper {
  const child: ChildProcess = spawn(node, ['-e', COUNTER_SOURCE, tokenizerPath()], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
  // The app must be able to exit while the helper idles.
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
  child.on('message', (answer) => onAnswer(answer as Answer));
  child.on('error', onEnd);
  child.on('exit', onEnd);
  return {
    send: (message) => child.send(message),
    stop: async () => {
      child.kill();
    },
  };
}

function threadHelper(onAnswer: (answer: Answer) => void, onEnd: () => void): Helper {
  const worker = new Worker(COUNTER_SOURCE, { eval: true, workerData: { tokenizer: tokenizerPath() } });
  worker.unref();
  worker.on('message', onAnswer);
  worker.on('error', onEnd);
  worker.on('exit', onEnd);
  return {
    send: (message) => worker.postMessage(message),
    stop: async () => {
      await worker.terminate();
    },
  };
}

interface Pending {
  texts: string[];
  resolve: (counts: number[]) => void;
}

export class TokenWorker {
  private helper: Helper | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private broken = false;

  /**
   * `idleMs`: how long the helper waits for more work before it exits (servers connecting one after
   * another share one). `kind`: a child process unless in Electron (above). `node`: the program the
   * child runs (this one).
   */
  constructor(
    private readonly idleMs = 2_000,
    private readonly kind: 'process' | 'thread' = process.versions.electron ? 'thread' : 'process',
    private readonly node = process.execPath,
  ) {}

  readonly count: CountTexts = (texts) => {
    if (texts.length === 0) return Promise.resolve([]);
    if (this.broken) return Promise.resolve(countHere(texts));
    clearTimeout(this.idleTimer);
    const helper = (this.helper ??= this.start());
    const id = this.nextId++;
    return new Promise<number[]>((resolve) => {
      this.pending.set(id, { texts, resolve });
      helper.send({ id, texts });
    });
  };

  /** Ends the helper now (the core's stop). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const helper = this.helper;
    this.helper = undefined;
    await helper?.stop();
  }

  /** Whether a helper is running now (for tests). */
  get running(): boolean {
    return this.helper !== undefined;
  }

  private start(): Helper {
    const onAnswer = ({ id, counts }: Answer) => {
      this.pending.get(id)?.resolve(counts);
      this.pending.delete(id);
      if (this.pending.size === 0) this.idleTimer = setTimeout(() => void this.close(), this.idleMs).unref();
    };
    let helper: Helper | undefined;
    const onEnd = () => this.lost(helper);
    try {
      helper = this.kind === 'process' ? childHelper(this.node, onAnswer, onEnd) : threadHelper(onAnswer, onEnd);
    } catch {
      helper = { send: () => this.lost(helper), stop: async () => {} };
    }
    return helper;
  }

  /**
   * A helper that ended with work in hand could not run here (no Node to start, the module unreadable
   * from it): that work, and all from now on, is counted in this process. One that ended idle is just gone.
   */
  private lost(helper: Helper | undefined): void {
    if (helper === undefined || this.helper !== helper) return;
    this.helper = undefined;
    if (this.pending.size === 0) return;
    this.broken = true;
    for (const waiting of this.pending.values()) waiting.resolve(countHere(waiting.texts));
    this.pending.clear();
  }
}
