import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';

/**
 * The MCP Registry's v0.1 API on 127.0.0.1, serving the real server.json documents in
 * test/fixtures/registry (the registry itself cannot be reached from here). Pages hold five
 * servers; the cursor is the name of the last one, as the registry's is opaque to clients.
 */
export interface FakeRegistry {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** Extra files to serve (path → bytes), e.g. a bundle to download. */
  files: Map<string, Uint8Array>;
  close: () => Promise<void>;
}

export const REGISTRY_FIXTURES = resolve('test/fixtures/registry');

export function fixtureDocuments(): Record<string, unknown>[] {
  return readdirSync(REGISTRY_FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(REGISTRY_FIXTURES, f), 'utf8')) as Record<string, unknown>);
}

export async function startFakeRegistry(documents: Record<string, unknown>[] = fixtureDocuments()): Promise<FakeRegistry> {
  const requests: string[] = [];
  const files = new Map<string, Uint8Array>();
  const wrap = (server: Record<string, unknown>) => ({ server, _meta: { 'io.modelcontextprotocol.registry/official': { status: 'active', isLatest: true } } });
  const sorted = [...documents].sort((a, b) => String(a.name).localeCompare(String(b.name)));
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(`${url.pathname}${url.search}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (files.has(url.pathname)) {
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      return void res.end(files.get(url.pathname));
    }
    if (url.pathname === '/redirect/v0.1/servers') {
      res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' });
      return void res.end();
    }
    if (url.pathname === '/v0.1/servers') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const cursor = url.searchParams.get('cursor');
      const matching = sorted.filter((s) => `${String(s.name)} ${String(s.description)}`.toLowerCase().includes(search));
      const start = cursor ? matching.findIndex((s) => s.name === cursor) + 1 : 0;
      const slice = matching.slice(start, start + 5);
      const more = start + 5 < matching.length;
      return json(200, { servers: slice.map(wrap), metadata: { count: slice.length, ...(more ? { nextCursor: String(slice.at(-1)!.name) } : {}) } });
    }
    const latest = /^\/v0\.1\/servers\/(.+)\/versions\/latest$/.exec(url.pathname);
    const found = latest && sorted.find((s) => s.name === decodeURIComponent(latest[1]!));
    if (found) return json(200, wrap(found));
    json(404, { title: 'Not Found', status: 404, detail: 'Server not found' });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, requests, files, close: () => new Promise((done) => server.close(() => done())) };
}
