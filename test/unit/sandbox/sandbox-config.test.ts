import { describe, expect, it } from 'vitest';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';

const SOURCE = { path: '/home/p/.config/Switchboard/servers.json', origin: 'switchboard' as const, userWritten: true };

describe('sandbox fields in a server entry (VS Code mcp.json format)', () => {
  it('reads sandboxEnabled and the sandbox block as VS Code writes them', () => {
    const result = validateServerEntry(
      'fs',
      {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-filesystem'],
        sandboxEnabled: true,
        sandbox: { filesystem: { allowWrite: ['~/notes'], denyRead: ['~/notes/private'] }, network: { allowedDomains: ['api.github.com', '*.example.com'] } },
      },
      SOURCE,
    );
    expect(result.ok && result.server.kind === 'stdio' && result.server).toMatchObject({
      sandboxEnabled: true,
      sandbox: {
        filesystem: { allowWrite: ['~/notes'], denyRead: ['~/notes/private'], denyWrite: [], allowRead: [] },
        network: { allowedDomains: ['api.github.com', '*.example.com'], deniedDomains: [] },
      },
    });
  });

  it('leaves an entry without them unsandboxed, as before', () => {
    const result = validateServerEntry('typed', { command: 'node', args: ['server.js'] }, SOURCE);
    expect(result.ok && result.server.kind === 'stdio' && result.server.sandboxEnabled).toBeUndefined();
  });

  it('refuses a domain that is not a host name, naming the field', () => {
    const result = validateServerEntry('x', { command: 'node', sandbox: { network: { allowedDomains: ['https://evil.example/$(id)'] } } }, SOURCE);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('server "x": "sandbox.network.allowedDomains[0]" must be a host name') });
  });

  it('refuses a sandboxEnabled that is not a boolean', () => {
    const result = validateServerEntry('x', { command: 'node', sandboxEnabled: 'yes' }, SOURCE);
    expect(result).toEqual({ ok: false, message: 'server "x": "sandboxEnabled" must be true or false' });
  });
});
