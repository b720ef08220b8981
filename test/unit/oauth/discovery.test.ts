import { describe, expect, it } from 'vitest';
import { canonicalServerUri, resourceCoversServer, sameIssuer } from '../../../src-main/core/oauth/discovery';

describe('resourceCoversServer (O3)', () => {
  it.each([
    ['https://mcp.example/mcp', 'https://mcp.example/mcp'],
    ['https://MCP.example:443/mcp', 'https://mcp.example/mcp'],
    ['https://mcp.example', 'https://mcp.example/mcp'],
    ['https://mcp.example/tenant', 'https://mcp.example/tenant/mcp'],
  ])('metadata for %s speaks for %s', (resource, server) => expect(resourceCoversServer(resource, server)).toBe(true));

  it.each([
    ['https://evil.example/mcp', 'https://mcp.example/mcp'],
    ['http://mcp.example/mcp', 'https://mcp.example/mcp'],
    ['https://mcp.example:8443/mcp', 'https://mcp.example/mcp'],
    ['https://mcp.example/mcp/other', 'https://mcp.example/mcp'],
    ['https://mcp.example/mc', 'https://mcp.example/mcp'],
    ['not a url', 'https://mcp.example/mcp'],
  ])('metadata for %s does not speak for %s', (resource, server) => expect(resourceCoversServer(resource, server)).toBe(false));
});

describe('sameIssuer (O2)', () => {
  it('tolerates one trailing slash and spelling of the host', () => {
    expect(sameIssuer('https://as.example', 'https://as.example/')).toBe(true);
    expect(sameIssuer('https://AS.example/tenant', 'https://as.example/tenant/')).toBe(true);
  });
  it('tells different issuers apart', () => {
    expect(sameIssuer('https://as.example/tenant1', 'https://as.example/tenant2')).toBe(false);
    expect(sameIssuer('https://attacker.example', 'https://as.example')).toBe(false);
  });
});

describe('canonicalServerUri', () => {
  it('drops the fragment and nothing else', () => {
    expect(canonicalServerUri('https://mcp.example/mcp?x=1#frag')).toBe('https://mcp.example/mcp?x=1');
  });
});
