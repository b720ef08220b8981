// The tool-search bench's inputs: real tool definitions dumped from npm servers (real-tools.json)
// and the labelled requests written from them (requests.tsv), plus the measures (recall@k, MRR).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

const HERE = import.meta.dirname;

export interface ServerDump {
  server: string;
  package: string;
  tools: Tool[];
}

export interface LabelledRequest {
  request: string;
  /** Acceptable answers as "server/tool"; any of them is a hit. */
  expected: string[];
}

export function realServers(): ServerDump[] {
  return JSON.parse(readFileSync(join(HERE, 'real-tools.json'), 'utf8')) as ServerDump[];
}

export const LABELLED_SETS = ['requests.tsv', 'held-out.tsv', 'held-out-2.tsv'] as const;
export type LabelledSet = (typeof LABELLED_SETS)[number];

/**
 * A labelled set: `requests.tsv` (the search was tuned on it), `held-out.tsv` (written after that tuning;
 * read again for issue 12's second pass, so no longer held out) or `held-out-2.tsv` (written before that pass).
 */
export function labelledRequests(file: LabelledSet = 'requests.tsv'): LabelledRequest[] {
  return readFileSync(join(HERE, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line, i) => {
      const [request, expected, extra] = line.split('\t');
      if (!request || !expected || extra !== undefined) throw new Error(`${file} line ${i + 1} (after comments): expected "request<TAB>server/tool[,server/tool]", got ${JSON.stringify(line)}`);
      return { request, expected: expected.split(',').map((s) => s.trim()) };
    });
}

/**
 * 50 servers of 40 tools each (2,000) from the real definitions: server i carries the real tools
 * rotated by i, the first 40 of them, so every definition, size and schema is one a real server serves.
 * `origin` maps each synthetic server's tool back to the real "server/tool" it copies.
 */
export function syntheticServers(servers: number, toolsPerServer: number): { sources: { server: string; tools: Tool[] }[]; origin: (server: string, tool: string) => string } {
  const real = realServers().flatMap((s) => s.tools.map((tool) => ({ from: s.server, tool })));
  if (real.length < toolsPerServer) throw new Error(`only ${real.length} real tools, fewer than ${toolsPerServer} per server`);
  const originOf = new Map<string, string>();
  const sources = Array.from({ length: servers }, (_, i) => {
    const server = `srv${String(i).padStart(2, '0')}`;
    const tools = Array.from({ length: toolsPerServer }, (_, j) => real[(i + j) % real.length]!);
    for (const t of tools) originOf.set(`${server}\0${t.tool.name}`, `${t.from}/${t.tool.name}`);
    return { server, tools: tools.map((t) => structuredClone(t.tool)) };
  });
  return { sources, origin: (server, tool) => originOf.get(`${server}\0${tool}`) ?? `${server}/${tool}` };
}

export interface SearchQuality {
  recallAtK: number;
  mrr: number;
  misses: { request: string; expected: string[]; got: string[] }[];
}

/** Recall@k (share of requests with an acceptable tool in the top k) and MRR (mean of 1/rank of the first acceptable one, 0 if none in the top 10). */
export function searchQuality(requests: LabelledRequest[], search: (query: string, limit: number) => string[], k = 5): SearchQuality {
  let hits = 0;
  let reciprocal = 0;
  const misses: SearchQuality['misses'] = [];
  for (const { request, expected } of requests) {
    const got = search(request, 10);
    const rank = got.findIndex((name) => expected.includes(name));
    if (rank >= 0 && rank < k) hits++;
    else misses.push({ request, expected, got: got.slice(0, k) });
    if (rank >= 0) reciprocal += 1 / (rank + 1);
  }
  return { recallAtK: hits / requests.length, mrr: reciprocal / requests.length, misses };
}
