import { describe, expect, it } from 'vitest';
import { EventHub } from '../../../src-main/core/event-hub';

describe('EventHub', () => {
  it('says whether anyone listens, so costly snapshots are built only for a listener', () => {
    const hub = new EventHub();
    expect(hub.listening).toBe(false);
    const heard: string[] = [];
    const stop = hub.subscribe((name) => heard.push(name));
    expect(hub.listening).toBe(true);
    hub.emit('signInChanged', { server: 's', running: true });
    stop();
    expect(hub.listening).toBe(false);
    expect(heard).toEqual(['signInChanged']);
  });
});
