import type { TransportKind } from '../../../src-preload/contract';

const labels: Record<TransportKind, string> = { stdio: 'local', http: 'HTTP', sse: 'SSE' };

/** A server's kind in a word: "local" runs a command, HTTP and SSE reach a URL. */
export function kindLabel(transport: TransportKind): string {
  return labels[transport];
}
