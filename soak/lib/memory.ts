/** process.memoryUsage() in MB: rss is all the process holds; heapUsed and external (buffers) are what JS keeps alive. */
export interface MemoryMb {
  rssMb: number;
  heapTotalMb: number;
  heapUsedMb: number;
  externalMb: number;
  arrayBuffersMb: number;
}

type ExposedGc = (options?: { type: 'major'; execution: 'sync'; flavor: 'regular' | 'last-resort' }) => void;

/**
 * A full collection that also gives back what V8 keeps for reuse (the `last-resort` flavour, which V8
 * runs before it gives up on a full heap). Node 24's young generation grows to 128 MB under load (Node 20:
 * 32 MB), and the pages it frees when it shrinks stay resident in V8's page pool until such a collection:
 * without it, RSS before and after the soak's rounds differs by how far the young generation grew in
 * between, not by what was kept (docs/soak.md, "What the memory check measures"). A no-op without --expose-gc.
 */
export function collectGarbage(): void {
  const collect = (globalThis as { gc?: ExposedGc }).gc;
  collect?.(); // a full collection on every Node (Node 20's gc() frees nothing when given the options below)
  collect?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}

const mb = (bytes: number) => bytes / (1024 * 1024);

/** The process's memory now, after collectGarbage(). */
export function settledMemory(): MemoryMb {
  collectGarbage();
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapTotalMb: mb(m.heapTotal), heapUsedMb: mb(m.heapUsed), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) };
}
