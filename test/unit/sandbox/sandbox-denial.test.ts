import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeDenial, detectDenial } from '../../../src-main/core/sandbox/sandbox-denial';
import type { SandboxPlan } from '../../../src-main/core/sandbox/sandbox-plan';

const home = mkdtempSync(join(tmpdir(), 'sandbox-denial-'));
writeFileSync(join(home, '.netrc'), 'secret');
mkdirSync(join(home, 'granted'));
writeFileSync(join(home, 'granted', 'gone-inside.txt'), 'x');
const plan: SandboxPlan = {
  hidden: [home],
  sealed: [],
  denyRead: [],
  grants: [{ path: join(home, 'granted'), access: 'write', from: 'argument' }],
  denyWrite: [],
  network: { kind: 'none' },
  refusedArguments: [],
};

describe('detectDenial', () => {
  it('reads a hidden file that exists outside the sandbox as a read denial (Node and Python wording)', () => {
    expect(detectDenial(`Error: ENOENT: no such file or directory, open '${home}/.netrc'`, plan)).toEqual({ kind: 'read', path: `${home}/.netrc` });
    expect(detectDenial(`FileNotFoundError: [Errno 2] No such file or directory: '${home}/.netrc'`, plan)).toEqual({ kind: 'read', path: `${home}/.netrc` });
  });

  it('leaves a server its own "file not found" for a file that does not exist, and for a path inside a grant', () => {
    expect(detectDenial(`Error: ENOENT: no such file or directory, open '${home}/nothing-here'`, plan)).toBeUndefined();
    expect(detectDenial(`Error: ENOENT: no such file or directory, open '${home}/granted/gone-inside.txt'`, plan)).toBeUndefined();
  });

  it('reads a read-only file system error outside the write grants as a write denial', () => {
    expect(detectDenial(`Error: EROFS: read-only file system, open '${home}/.bashrc'`, plan)).toEqual({ kind: 'write', path: `${home}/.bashrc` });
  });

  it('reads a refused connection as a network denial only when the plan gives no network', () => {
    expect(detectDenial('Error: connect ECONNREFUSED 127.0.0.1:5432', plan)).toEqual({ kind: 'connect', host: '127.0.0.1:5432' });
    expect(detectDenial('Error: getaddrinfo EAI_AGAIN api.github.com', plan)).toEqual({ kind: 'connect', host: 'api.github.com' });
    expect(detectDenial('Error: connect ECONNREFUSED 127.0.0.1:5432', { ...plan, network: { kind: 'domains', allowed: ['x.com'], denied: [] } })).toBeUndefined();
  });

  it("names the host of a package manager's failed download, which npm prints apart from its error code", () => {
    const npm = 'npm http fetch GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-sequential-thinking attempt 2 failed with EAI_AGAIN';
    expect(detectDenial(npm, plan)).toEqual({ kind: 'connect', host: 'registry.npmjs.org' });
    expect(detectDenial("pip: Retrying after connection broken by 'NewConnectionError: Failed to establish a new connection: [Errno -3] Temporary failure in name resolution': https://pypi.org/simple/mcp-server-time/", plan)).toEqual({ kind: 'connect', host: 'pypi.org' });
    // A URL in a line that is not a network failure is not a denial.
    expect(detectDenial('npm http fetch GET 200 https://registry.npmjs.org/zod 31ms (cache hit)', plan)).toBeUndefined();
  });
});

describe('describeDenial', () => {
  it('says what was blocked in the row\'s words, with the home folder as ~', () => {
    expect(describeDenial({ kind: 'read', path: `${home}/.netrc` }, home)).toBe('blocked by the sandbox: read ~/.netrc');
    expect(describeDenial({ kind: 'write', path: '/etc/hosts' }, home)).toBe('blocked by the sandbox: write /etc/hosts');
    expect(describeDenial({ kind: 'connect', host: 'api.github.com' }, home)).toBe('blocked by the sandbox: connect to api.github.com');
  });
});
