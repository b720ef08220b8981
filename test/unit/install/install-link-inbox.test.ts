import { describe, expect, it } from 'vitest';
import { InstallLinkInbox } from '../../../src-main/core/install/install-link-inbox';

describe('the install link inbox', () => {
  it('announces each link and hands the newest over once, parsed like web mode’s /install page', () => {
    let announced = 0;
    const inbox = new InstallLinkInbox(() => announced++);
    expect(inbox.take()).toBeNull();
    inbox.offer('switchboard://install?catalog=git');
    inbox.offer('switchboard://install?registry=io.github.brave%2Fbrave-search-mcp-server&name=brave');
    expect(announced).toBe(2);
    expect(inbox.take()).toEqual({ kind: 'registry', registry: 'io.github.brave/brave-search-mcp-server', name: 'brave' });
    expect(inbox.take()).toBeNull();
  });

  it('refuses a bad link with the parser’s exact reason, and forgets it', () => {
    const inbox = new InstallLinkInbox(() => {});
    inbox.offer(`switchboard://install?catalog=${'a'.repeat(9000)}`);
    expect(() => inbox.take()).toThrow('the install link is over 8192 characters');
    inbox.offer('switchboard://install?catalog=memory&run=1');
    expect(() => inbox.take()).toThrow('the install link has an unknown parameter "run"');
    expect(inbox.take()).toBeNull();
  });
});
