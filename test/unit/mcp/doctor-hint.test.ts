import { describe, expect, it } from 'vitest';
import type { RemoteServerConfig, StdioServerConfig } from '../../../src-main/core/config/server-config';
import { doctorHint } from '../../../src-main/core/mcp/doctor-hint';

const source = { path: '/home/u/.config/Switchboard/servers.json', origin: 'switchboard' as const, userWritten: true };
const npx: StdioServerConfig = { kind: 'stdio', name: 'gh', command: 'npx', args: [], env: {}, enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source };
const web: RemoteServerConfig = { kind: 'remote', name: 'web', url: 'https://x/mcp', headers: {}, transport: 'auto', enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask', source };

describe('doctorHint', () => {
  it('says how to fix command-not-found, timeouts and sign-in', () => {
    expect(doctorHint(npx, { kind: 'error', reason: 'command not found: npx (PATH searched: /usr/bin)' })).toBe(
      `install npx (for npx: install Node.js), or put its full path in "command"; Switchboard searches your login shell's PATH`,
    );
    expect(doctorHint(npx, { kind: 'error', reason: 'timed out after 30 s during initialize' })).toBe(
      'it did not finish initialize in 30 s: run it by hand to see whether it starts (first runs of npx download packages), or raise "timeout" for "gh"',
    );
    expect(doctorHint(web, { kind: 'needs_auth', reason: 'HTTP 401: sign-in required' })).toBe(
      'sign in from Switchboard (Servers → Sign in); the CLI cannot open the browser flow',
    );
  });

  it('has nothing to say about a healthy or starting server', () => {
    expect(doctorHint(npx, { kind: 'connected', reason: 'connected over stdio' })).toBeUndefined();
    expect(doctorHint(npx, { kind: 'connecting', reason: 'starting npx' })).toBeUndefined();
  });

  it('points at the file for a disabled server and at the approval for an untrusted one', () => {
    expect(doctorHint(npx, { kind: 'disabled', reason: `disabled in ${source.path}` })).toBe(`enable it in the app, or set "enabled": true for "gh" in ${source.path}`);
    expect(doctorHint(npx, { kind: 'trust_required', reason: 'defined in /p/.mcp.json …' })).toBe(
      'open Switchboard and approve the command (Servers → Approve) if you trust this project',
    );
  });
});
