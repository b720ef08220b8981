import { describe, expect, it } from 'vitest';
import type { RemoteServerConfig, StdioServerConfig } from '../../../src-main/core/config/server-config';
import { launchHash } from '../../../src-main/core/mcp/launch-hash';

const source = { path: '/s.json', origin: 'switchboard' as const, userWritten: true };
const base: StdioServerConfig = { kind: 'stdio', name: 'a', command: 'npx', args: ['x'], env: { A: '1', B: '2' }, enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source };
const remote: RemoteServerConfig = { kind: 'remote', name: 'r', url: 'https://x/mcp', headers: { H: '1' }, transport: 'auto', enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source };

describe('launchHash', () => {
  it('changes with command, args, env and cwd, but not with name, timeouts, approval or enabled', () => {
    const h = launchHash(base);
    for (const change of [{ command: 'node' }, { args: ['y'] }, { env: { A: '1', B: '3' } }, { cwd: '/tmp' }]) expect(launchHash({ ...base, ...change })).not.toBe(h);
    for (const same of [{ name: 'b' }, { timeout: 5 }, { toolTimeout: 5 }, { approval: 'auto' as const }, { enabled: false }, { env: { B: '2', A: '1' } }]) {
      expect(launchHash({ ...base, ...same })).toBe(h);
    }
  });

  it('changes with url, headers and transport of a remote server', () => {
    const h = launchHash(remote);
    for (const change of [{ url: 'https://y/mcp' }, { headers: { H: '2' } }, { transport: 'sse' as const }]) expect(launchHash({ ...remote, ...change })).not.toBe(h);
  });
});
