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
