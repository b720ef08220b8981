import { describe, expect, it } from 'vitest';
import { stateChanges } from '../../../src-renderer/lib/servers/state-announcer';

describe('stateChanges', () => {
  it('names each server whose state changed, in words, in list order', () => {
    expect(stateChanges({ everything: 'connecting', files: 'connected', notes: 'disabled' }, { everything: 'connected', files: 'error', notes: 'disabled' })).toBe(
      'everything: Connected. files: Error.',
    );
  });

  it('says nothing for a server that only started connecting, appeared or left', () => {
    expect(stateChanges({ a: 'error', gone: 'connected' }, { a: 'connecting', added: 'connected' })).toBe('');
  });

  it('says when a server needs the person: sign-in or approval', () => {
    expect(stateChanges({ remote: 'connected', proj: 'disabled' }, { remote: 'needs_auth', proj: 'trust_required' })).toBe(
      'remote: Sign-in needed. proj: Needs your approval.',
    );
  });
});
