import { capCallResult } from '../lib/shipped';
import { judge, type Figure } from '../lib/figure';
import { gc } from '../lib/servers';
import { summarize } from '../lib/stats';

const RESULT_CHARS = 10_000_000;
const MB = 1_000_000;

/** A tools/call response line carrying 10 MB of text, as it arrives on a server's stdout. */
function wireMessage(): Buffer {
  const line = 'The quick brown fox jumps over the lazy dog. 0123456789\n';
  const text = line.repeat(Math.ceil(RESULT_CHARS / line.length)).slice(0, RESULT_CHARS);
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } }), 'utf8');
}

/** The result as the SDK hands it over: parsed from the line, like its deserializeMessage does. */
function parsedResult(wire: Buffer): unknown {
  return (JSON.parse(wire.toString('utf8')) as { result: unknown }).result;
}

interface OneRun {
  ms: number;
  growthMb: number;
  truncated: number;
}

/** One measurement in its own call frame, so no stale reference from an earlier run skews the heap. */
function measureOnce(wire: Buffer): OneRun {
  const held = { raw: parsedResult(wire) };
  gc();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const mapped = capCallResult(held.raw as Parameters<typeof capCallResult>[0]);
  const ms = performance.now() - started;
  const after = process.memoryUsage().heapUsed;
  const part = mapped.content[0];
  if (part?.type !== 'text' || part.text.length >= RESULT_CHARS) throw new Error('the 10 MB result was not truncated');
  return { ms, growthMb: (after - before) / MB, truncated: mapped.truncatedChars };
}

/**
 * capCallResult on a 10 MB text result (the cap cuts it to head + tail): time per mapping, and how
 * much the heap grew while mapping (heapUsed after − before, gc before, none during), against the
 * 10 MB result. The raw SDK does no mapping; it hands the 10 MB back as is.
 */
export async function bigResultMapping(runs: number): Promise<Figure[]> {
  const wire = wireMessage();
  const all = Array.from({ length: runs }, () => measureOnce(wire));
  const truncated = all[0]?.truncated ?? 0;
  const mb = RESULT_CHARS / MB;
  return [
    judge({
      id: 'big-result-map-ms',
      title: '10 MB text result mapped and truncated',
      unit: 'ms',
      target: { kind: 'absolute', max: 20, unit: 'ms' },
      switchboard: { stats: summarize(all.map((r) => r.ms)), work: `capCallResult on one ${mb} MB text part parsed from the wire (${truncated.toLocaleString('en-US')} characters cut)` },
      note: 'the raw SDK does no mapping (ratio n/a): it returns the 10 MB unchanged',
    }),
    judge({
      id: 'big-result-map-heap',
      title: '10 MB text result: heap growth while mapping',
      unit: 'MB',
      target: { kind: 'absolute', max: 2 * mb, unit: `MB (2× the ${mb} MB result)` },
      switchboard: { stats: summarize(all.map((r) => r.growthMb)), work: 'heapUsed after − before capCallResult (gc before, none during)' },
    }),
  ];
}
