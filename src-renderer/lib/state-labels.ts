import type { ServerStateKind } from '../../src-preload/contract';

/** Words for each state, in the user's language rather than ours. */
export const stateLabel: Record<ServerStateKind, string> = {
  disabled: 'Disabled',
  trust_required: 'Needs your approval',
  connecting: 'Connecting',
  connected: 'Connected',
  needs_auth: 'Sign-in needed',
  error: 'Error',
  backing_off: 'Retrying',
};

/** The dot colour class for a state. */
export function stateTone(state: ServerStateKind): 'ok' | 'warn' | 'bad' | 'idle' {
  switch (state) {
    case 'connected':
      return 'ok';
    case 'connecting':
    case 'backing_off':
    case 'needs_auth':
    case 'trust_required':
      return 'warn';
    case 'error':
      return 'bad';
    case 'disabled':
      return 'idle';
  }
}

/** When a backing-off server tries again: "in 4 s (at 13:05:12)", or "now" once the time has come. */
export function retryText(nextAttemptAt: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((nextAttemptAt - now) / 1000));
  const at = new Date(nextAttemptAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return seconds === 0 ? 'now' : `in ${seconds} s (at ${at})`;
}
