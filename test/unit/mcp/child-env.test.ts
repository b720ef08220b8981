import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../../src-main/core/mcp/child-env';

describe('childEnvironment', () => {
  it('is the allowlist plus the server env, with the login PATH, and never ELECTRON_* or NODE_OPTIONS', () => {
    process.env.SWITCHBOARD_LEAK_CHECK = 'leak';
    const env = childEnvironment({ TOKEN: 't', NODE_OPTIONS: '--require x', ELECTRON_RUN_AS_NODE: '1' }, '/login/bin:/usr/bin');
    delete process.env.SWITCHBOARD_LEAK_CHECK;
    expect(env.TOKEN).toBe('t');
    expect(env.PATH).toBe('/login/bin:/usr/bin');
    expect(env.HOME).toBe(process.env.HOME);
    expect(Object.keys(env).sort()).toEqual(['TOKEN', ...['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].filter((k) => k === 'PATH' || process.env[k] !== undefined)].sort());
  });

  it('lets a server set its own PATH', () => {
    expect(childEnvironment({ PATH: '/only/mine' }, '/login/bin').PATH).toBe('/only/mine');
  });
});
