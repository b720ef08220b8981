import { describe, expect, it } from 'vitest';
import type { RemoteServerConfig, StdioServerConfig } from '../../../src-main/core/config/server-config';
import { diagnosticsFileName, redactConfig } from '../../../src-main/core/diagnosis/diagnostics-bundle';

const source = { path: '/home/u/servers.json', origin: 'switchboard' as const, userWritten: true };
const common = { enabled: true, timeout: 30, toolTimeout: 120, approval: 'ask' as const, source };

describe('redactConfig', () => {
  it('keeps bare references and replaces written-out values, defaults included', () => {
    const config: StdioServerConfig = {
      ...common,
      kind: 'stdio',
      name: 'gh',
      command: 'npx',
      args: ['-y', 'server', '--token', 'ghp_abc', '--api-key=xyz', '--port', '8080', '--password'],
      env: { A: '${secret:gh}', B: 'ghp_plain', C: '${TOKEN:-fallback-secret}', D: 'prefix ${secret:gh}' },
    };
    expect(redactConfig(config)).toMatchObject({
      command: 'npx',
      args: ['-y', 'server', '--token', '[redacted]', '--api-key=[redacted]', '--port', '8080', '--password'],
      env: { A: '${secret:gh}', B: '[redacted]', C: '[redacted]', D: '[redacted]' },
      source: '/home/u/servers.json',
    });
  });

  it('keeps an auth scheme with a reference, and strips URL credentials and query values', () => {
    const config: RemoteServerConfig = {
      ...common,
      kind: 'remote',
      name: 'web',
      url: 'https://user:pw@mcp.example/mcp?key=abc&team=core',
      transport: 'auto',
      headers: { Authorization: 'Bearer ${secret:web}', 'X-Key': 'Bearer literal' },
    };
    expect(redactConfig(config)).toMatchObject({
      url: 'https://redacted:redacted@mcp.example/mcp?key=redacted&team=redacted',
      headers: { Authorization: 'Bearer ${secret:web}', 'X-Key': '[redacted]' },
    });
    expect(redactConfig({ ...config, url: 'not a url' })).toMatchObject({ url: '[redacted]' });
  });
});

describe('diagnosticsFileName', () => {
  it('is sortable and has no colon', () => {
    expect(diagnosticsFileName(new Date('2026-11-23T20:41:07.123Z'))).toBe('switchboard-diagnostics-2026-11-23T20-41-07Z.zip');
  });
});
