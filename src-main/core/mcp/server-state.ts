/** One server's connection state; every state carries a human reason the UI shows as is. */
export type ServerState =
  | { kind: 'disabled'; reason: string }
  | { kind: 'trust_required'; reason: string }
  | { kind: 'connecting'; reason: string }
  | { kind: 'connected'; reason: string }
  | { kind: 'needs_auth'; reason: string }
  | { kind: 'error'; reason: string }
  | { kind: 'backing_off'; reason: string; nextAttemptAt: number };
