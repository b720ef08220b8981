// Shared setup for the OAuth integration tests: a vault (the real keychain when the run has one),
// a logger that keeps every line, and remote server configs.
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RemoteServerConfig } from '../../../src-main/core/config/server-config';
import type { SwitchboardAuthProvider } from '../../../src-main/core/oauth/auth-provider';
import type { Logger, SecretVault } from '../../../src-main/core/ports';
import { KeytarVault } from '../../../src-main/core/secrets/keytar-vault';
import { MemoryVault } from '../../../src-main/core/secrets/memory-vault';

export const usesKeychain = process.env.SWITCHBOARD_TEST_KEYCHAIN === '1';

export function testVault(): SecretVault {
  return usesKeychain ? new KeytarVault(`Switchboard-test-${randomBytes(4).toString('hex')}`) : new MemoryVault();
}

export async function emptyVault(vault: SecretVault): Promise<void> {
  for (const name of await vault.list()) await vault.delete(name);
}

export class CapturingLogger implements Logger {
  readonly lines: string[] = [];
  info = (m: string, f?: Record<string, unknown>) => void this.lines.push(`info ${m} ${JSON.stringify(f ?? {})}`);
  warn = (m: string, f?: Record<string, unknown>) => void this.lines.push(`warn ${m} ${JSON.stringify(f ?? {})}`);
  error = (m: string, f?: Record<string, unknown>) => void this.lines.push(`error ${m} ${JSON.stringify(f ?? {})}`);
}

export function remoteServer(name: string, url: string): RemoteServerConfig {
  return {
    kind: 'remote',
    name,
    url,
    headers: {},
    transport: 'streamable-http',
    enabled: true,
    timeout: 30,
    toolTimeout: 120,
    approval: 'ask',
    source: { path: '/test/servers.json', origin: 'switchboard', userWritten: true },
  };
}

/** Connects the way the connection manager does: the provider as authProvider, its fetch as the transport's. */
export async function connect(url: string, provider: SwitchboardAuthProvider): Promise<Client> {
  const client = new Client({ name: 'switchboard-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider, fetch: provider.fetch }));
  return client;
}

export const toolText = (result: unknown): string =>
  ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? '') as string;
