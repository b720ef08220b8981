import type { ServerStateKind } from '../../../src-preload/contract';

/** One server's connection state; every state carries a human reason the UI shows as is. */
export type ServerState =
  | { kind: 'disabled'; reason: string }
  | { kind: 'trust_required'; reason: string }
  | { kind: 'connecting'; reason: string }
  | { kind: 'connected'; reason: string }
  | { kind: 'needs_auth'; reason: string }
  /** stderrTail: the last lines the process wrote to stderr when it died starting (what the fix points at). */
  | { kind: 'error'; reason: string; stderrTail?: string[] }
  | { kind: 'backing_off'; reason: string; nextAttemptAt: number };

/** States a connect attempt ends in; a call waiting for its server stops waiting at any of these. */
export function isSettled(state: ServerState): boolean {
  switch (state.kind) {
    case 'connecting':
      return false;
    case 'disabled':
    case 'trust_required':
    case 'connected':
    case 'needs_auth':
    case 'error':
    case 'backing_off':
      return true;
  }
}

export const stateKind = (state: ServerState): ServerStateKind => state.kind;
