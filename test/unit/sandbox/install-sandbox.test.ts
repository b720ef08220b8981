import { describe, expect, it } from 'vitest';
import { withInstallSandbox } from '../../../src-main/core/sandbox/install-sandbox';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';

const SOURCE = { path: '/h/servers.json', origin: 'switchboard' as const, userWritten: true };

describe('withInstallSandbox (servers installed from the catalog or the registry run sandboxed)', () => {
  it('gives a catalog server the grants its entry declares', () => {
    const entry = withInstallSandbox({ command: 'npx', args: ['-y', '@brave/brave-search-mcp-server'], env: {} }, { catalog: 'brave-search' });
    expect(entry).toMatchObject({ sandboxEnabled: true, sandbox: { network: { allowedDomains: ['registry.npmjs.org', 'api.search.brave.com'] } } });
    expect(validateServerEntry('brave', entry, SOURCE).ok).toBe(true);
  });

  it('leaves a catalog server whose purpose a sandbox would refuse as it is (playwright drives a browser)', () => {
    const entry = { command: 'npx', args: ['-y', '@playwright/mcp'], env: {} };
    expect(withInstallSandbox(entry, { catalog: 'playwright' })).toEqual(entry);
  });

  it('gives a registry package the hosts its runner fetches from, and nothing else', () => {
    expect(withInstallSandbox({ command: 'uvx', args: ['mcp-server-x'], env: {} }, { registry: 'io.github.x/y' })).toMatchObject({
      sandboxEnabled: true,
      sandbox: { network: { allowedDomains: ['pypi.org', 'files.pythonhosted.org'] } },
    });
  });

  it('leaves remote entries and containers alone', () => {
    expect(withInstallSandbox({ url: 'https://mcp.example.com' }, { registry: 'a/b' })).toEqual({ url: 'https://mcp.example.com' });
    expect(withInstallSandbox({ command: 'docker', args: ['run', 'x'] }, { registry: 'a/b' })).toEqual({ command: 'docker', args: ['run', 'x'] });
  });

  it('every catalog entry\'s declared sandbox is valid in VS Code\'s format', () => {
    for (const id of ['filesystem', 'memory', 'everything', 'fetch', 'git', 'sqlite', 'postgres', 'context7', 'notion']) {
      const entry = withInstallSandbox({ command: 'npx', args: [] }, { catalog: id });
      expect(validateServerEntry(id, entry, SOURCE).ok, id).toBe(true);
      expect(entry.sandboxEnabled, id).toBe(true);
    }
  });
});
