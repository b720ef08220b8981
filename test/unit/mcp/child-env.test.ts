import { describe, expect, it } from 'vitest';
import { childEnvironment } from '../../../src-main/core/mcp/child-env';

describe('childEnvironment', () => {
  it('is the allowlist plus the server env, with the login PATH, and never ELECTRON_* or NODE_OPTIONS', () => {
    process.env.SWITCHBOARD_LEAK_CHECK = 'leak';
    const env = childEnvironment({ TOKEN: 't', NODE_OPTIONS: '--require x', ELECTRON_RUN_AS_NODE: '1' }, '/login/bin:/usr/bin', {});
    delete process.env.SWITCHBOARD_LEAK_CHECK;
    expect(env.TOKEN).toBe('t');
    expect(env.PATH).toBe('/login/bin:/usr/bin');
    expect(env.HOME).toBe(process.env.HOME);
    expect(Object.keys(env).sort()).toEqual(['TOKEN', ...['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'].filter((k) => k === 'PATH' || process.env[k] !== undefined)].sort());
  });

  it("passes the machine's CA bundles and credential-free proxies, so npx works behind a TLS-inspecting network; never a proxy URL holding a password", () => {
    const machine = {
      NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem',
      SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt',
      HTTPS_PROXY: 'http://proxy.corp:3128',
      no_proxy: 'localhost,.corp',
      HTTP_PROXY: 'http://alice:s3cret-pass@proxy.corp:3128',
      ALL_PROXY: 'socks5://token@proxy.corp:1080',
      AWS_SECRET_ACCESS_KEY: 'not-for-servers',
      SSL_KEY_PASSWORD: 'not-for-servers',
    };
    const env = childEnvironment({}, '/usr/bin', machine);
    expect(env).toMatchObject({ NODE_EXTRA_CA_CERTS: '/etc/corp/ca.pem', SSL_CERT_FILE: '/etc/ssl/certs/ca-certificates.crt', HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: 'localhost,.corp' });
    for (const key of ['HTTP_PROXY', 'ALL_PROXY', 'AWS_SECRET_ACCESS_KEY', 'SSL_KEY_PASSWORD']) expect(env).not.toHaveProperty(key);
    // The server's own setting wins.
    expect(childEnvironment({ HTTPS_PROXY: '' }, '/usr/bin', machine).HTTPS_PROXY).toBe('');
  });

  it('lets a server set its own PATH', () => {
    expect(childEnvironment({ PATH: '/only/mine' }, '/login/bin').PATH).toBe('/only/mine');
  });
});
