import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { AppFailure } from '../app-error';
import { guardedFetch } from '../oauth/guarded-fetch';
import { checkExternalUrl } from '../url-policy';

/**
 * The MCP Registry API (v0.1): search with a cursor, and a server's latest version. Every request
 * goes through the guarded fetch (no redirects followed, no link-local or metadata hosts; SECURITY
 * O9), with a time limit and a size cap; what comes back is data, checked before use.
 */
export const DEFAULT_REGISTRY_URL = 'https://registry.modelcontextprotocol.io';
const MAX_BODY_BYTES = 5 * 1024 * 1024;
const TIMEOUT_MS = 15_000;

const entry = z.object({ server: z.record(z.string(), z.unknown()).and(z.object({ name: z.string() })), _meta: z.record(z.string(), z.unknown()).optional() });
const page = z.object({ servers: z.array(entry), metadata: z.object({ nextCursor: z.string().optional() }).partial().optional() });

export type RegistryEntry = z.infer<typeof entry>;
export interface RegistryPage {
  servers: RegistryEntry[];
  nextCursor?: string;
}

/** https anywhere, or http on this computer (a registry run for tests or inside a company on loopback). */
export function checkRegistryUrl(raw: string): string {
  const verdict = checkExternalUrl(raw);
  if (!verdict.ok) throw new AppFailure('invalid_input', `registry URL ${JSON.stringify(raw)} is not allowed: ${verdict.reason}`);
  return verdict.url.replace(/\/+$/, '');
}

export class RegistryClient {
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly fetchImpl: FetchLike = guardedFetch(),
  ) {
    this.base = checkRegistryUrl(baseUrl);
  }

  async search(query: string, cursor?: string): Promise<RegistryPage> {
    const params = new URLSearchParams({ limit: '30', version: 'latest' });
    if (query.trim()) params.set('search', query.trim());
    if (cursor) params.set('cursor', cursor);
    const body = page.safeParse(await this.get(`/v0.1/servers?${params}`));
    if (!body.success) throw new AppFailure('unavailable', `the registry at ${this.base} answered with an unexpected list: ${body.error.issues[0]!.message}`);
    const next = body.data.metadata?.nextCursor;
    return { servers: body.data.servers, ...(next ? { nextCursor: next } : {}) };
  }

  async latest(name: string): Promise<RegistryEntry> {
    const body = entry.safeParse(await this.get(`/v0.1/servers/${encodeURIComponent(name)}/versions/latest`));
    if (!body.success) throw new AppFailure('unavailable', `the registry at ${this.base} answered with an unexpected server: ${body.error.issues[0]!.message}`);
    if (body.data.server.name !== name) throw new AppFailure('unavailable', `the registry at ${this.base} answered for "${body.data.server.name}" when asked for "${name}"`);
    return body.data;
  }

  private async get(path: string): Promise<unknown> {
    const url = `${this.base}${path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new AppFailure('unavailable', `the registry at ${this.base} cannot be reached: ${(error as Error).message}`);
    }
    if (response.status >= 300 && response.status < 400) throw new AppFailure('unavailable', `the registry at ${this.base} answered with a redirect (${response.status}), which Switchboard does not follow`);
    if (response.status === 404) throw new AppFailure('not_found', `the registry at ${this.base} has nothing at ${path.split('?')[0]}`);
    if (!response.ok) throw new AppFailure('unavailable', `the registry at ${this.base} answered ${response.status}`);
    const text = await readCapped(response, MAX_BODY_BYTES);
    try {
      return JSON.parse(text);
    } catch {
      throw new AppFailure('unavailable', `the registry at ${this.base} answered with something that is not JSON`);
    }
  }
}

/** Read a body, refusing one larger than the cap without holding more than it. */
export async function readCappedBytes(response: Response, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Node's web streams are async iterable; the DOM typings here do not say so.
  for await (const chunk of (response.body ?? []) as unknown as AsyncIterable<Uint8Array>) {
    size += (chunk as Uint8Array).length;
    if (size > max) throw new AppFailure('unavailable', `the answer is over ${Math.round(max / (1024 * 1024))} MiB; refusing it`);
    chunks.push(chunk as Uint8Array);
  }
  return Buffer.concat(chunks);
}

const readCapped = async (response: Response, max: number): Promise<string> => Buffer.from(await readCappedBytes(response, max)).toString('utf8');
