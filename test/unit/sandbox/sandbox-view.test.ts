import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StdioServerConfig } from '../../../src-main/core/config/server-config';
import { sandboxView } from '../../../src-main/core/sandbox/sandbox-view';

const home = mkdtempSync(join(tmpdir(), 'sandbox-view-'));
const config = (extra: Partial<StdioServerConfig> = {}): StdioServerConfig => ({
  kind: 'stdio',
  name: 's',
  command: 'node',
  args: [],
  env: { HOME: home },
  enabled: true,
  timeout: 30,
  toolTimeout: 60,
  approval: 'ask',
  source: { path: join(home, 'servers.json'), origin: 'switchboard', userWritten: true },
  ...extra,
});

afterEach(() => {
  delete process.env.SWITCHBOARD_POLICY;
});

describe('sandboxView (the row and the trust card)', () => {
  it('on Windows says plainly that the server is not sandboxed, and that the sandbox cannot be had when asked for', () => {
    expect(sandboxView(config(), undefined, undefined, 'win32')).toEqual({
      status: 'off',
      note: 'not sandboxed: Windows has no sandbox for local servers yet',
      setByOrganization: false,
      grants: [],
      domains: [],
    });
    expect(sandboxView(config({ sandboxEnabled: true }), undefined, undefined, 'win32').status).toBe('unavailable');
  });

  it('shows the refusal named by the state reason, for Allow', () => {
    expect(sandboxView(config({ sandboxEnabled: true }), 'blocked by the sandbox: connect to api.github.com', undefined, 'linux').denial).toEqual({
      kind: 'connect',
      text: 'blocked by the sandbox: connect to api.github.com',
    });
    expect(sandboxView(config({ sandboxEnabled: true }), 'exited with code 1 during initialize', undefined, 'linux').denial).toBeUndefined();
  });

  it('shows the sandbox as on and set by the organization when the policy requires it, whatever the entry says', () => {
    const policy = join(home, 'policy.json');
    writeFileSync(policy, JSON.stringify({ sandbox: 'required' }));
    process.env.SWITCHBOARD_POLICY = policy;
    expect(sandboxView(config({ sandboxEnabled: false }), undefined, undefined, 'linux')).toMatchObject({ status: 'on', setByOrganization: true });
  });
});
