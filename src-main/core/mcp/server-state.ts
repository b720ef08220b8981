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
