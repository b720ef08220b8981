import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { countHere, TokenWorker } from '../../../src-main/core/tools/token-worker';

// This file never imports the tokenizer itself, so the module cache says whether counting loaded it here.
const tokenizerLoadedHere = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('gpt-tokenizer'));
const texts = ['{"name":"files__read_file","description":"Read the complete contents of a file"}', 'hello world', ''];
/** What o200k_base counts for them (checked against countHere below, once the helpers have run). */
const o200kCounts = [18, 2, 0];

describe.each(['process', 'thread'] as const)('TokenWorker in a %s: counting away from the main process', (kind) => {
  let worker: TokenWorker | undefined;
  afterEach(async () => {
    await worker?.close();
  });

  it('counts what the tokenizer counts, without loading the tokenizer into this process', async () => {
    worker = new TokenWorker(2_000, kind);
    expect(await worker.count(texts)).toEqual(o200kCounts);
    expect(tokenizerLoadedHere()).toBe(false);
  });

  it('keeps one worker for work that comes close together, and ends it once idle', async () => {
    worker = new TokenWorker(200, kind);
    const [a, b] = await Promise.all([worker.count(['one']), worker.count(['two', 'three'])]);
    expect([a, b]).toEqual([[1], [1, 1]]);
    expect(worker.running).toBe(true);
    await expect.poll(() => worker!.running, { timeout: 5_000 }).toBe(false);
    // A later count starts a new one.
    expect(await worker.count(['four five'])).toEqual([2]);
  });

  it('an empty list needs no worker', async () => {
    worker = new TokenWorker(2_000, kind);
    expect(await worker.count([])).toEqual([]);
    expect(worker.running).toBe(false);
  });
});

// Last: both load the tokenizer into this process.
describe('countHere, the fallback and the bench', () => {
  it('counts in this process when no helper can start, for that work and all after it', async () => {
    const worker = new TokenWorker(2_000, 'process', '/nonexistent/node');
    try {
      expect(await worker.count(texts)).toEqual(o200kCounts);
      expect(tokenizerLoadedHere()).toBe(true);
      expect(await worker.count(['one'])).toEqual([1]);
      expect(worker.running).toBe(false);
    } finally {
      await worker.close();
    }
  });

  it('counts what the helpers count (and loads the tokenizer into this process)', () => {
    expect(countHere([...texts, 'one', 'four five'])).toEqual([...o200kCounts, 1, 2]);
    expect(tokenizerLoadedHere()).toBe(true);
  });
});
