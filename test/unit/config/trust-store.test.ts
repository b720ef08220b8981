import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigSource, ServerConfig, StdioServerConfig } from '../../../src-main/core/config/server-config';
import { TrustStore, trustFile, trustHash } from '../../../src-main/core/config/trust-store';
import { validateServerEntry } from '../../../src-main/core/config/validate-server';

let home: string;
const clock = { now: () => 1_700_000_000_000 };
const project: ConfigSource = { path: '/proj/.mcp.json', origin: 'project', userWritten: false };
const own: ConfigSource = { path: '/home/servers.json', origin: 'switchboard', userWritten: true };

function entry(name: string, raw: object, source = project): ServerConfig {
  const r = validateServerEntry(name, raw, source);
  if (!r.ok) throw new Error(r.message);
  return r.server;
}
const base = { command: 'node', args: ['server.js'], env: { TOKEN: '${secret:T}' }, cwd: '/proj' };
const stdio = entry('tools', base) as StdioServerConfig;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sb-trust-'));
});
afterEach(async () => {
  await rm(home, { recursive: true, force: true });
});

describe('TrustStore', () => {
  it('gates every server, local or remote, from files the user did not write through Switchboard', async () => {
    const store = await TrustStore.open(home, clock);
    expect(store.needsTrust(stdio)).toBe(true);
    expect(store.isTrusted(stdio)).toBe(false);
    const ownStdio = entry('tools', base, own);
    expect(store.needsTrust(ownStdio)).toBe(false);
    expect(store.isTrusted(ownStdio)).toBe(true);
    const remote = entry('remote', { url: 'https://r.example/mcp' });
    expect(store.needsTrust(remote)).toBe(true);
    expect(store.isTrusted(remote)).toBe(false);
    const ownRemote = entry('remote', { url: 'https://r.example/mcp' }, own);
    expect(store.needsTrust(ownRemote)).toBe(false);
    expect(store.isTrusted(ownRemote)).toBe(true);
  });

  const remoteBase = { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${API_TOKEN}' }, transport: 'streamable-http' };
  it.each([
    ['the URL', { ...remoteBase, url: 'https://evil.example/mcp' }],
    ['the variable a header reads', { ...remoteBase, headers: { Authorization: 'Bearer ${AWS_SECRET_ACCESS_KEY}' } }],
    ['a header key', { ...remoteBase, headers: { ...remoteBase.headers, 'X-Extra': '${HOME}' } }],
    ['the transport', { ...remoteBase, transport: 'sse' }],
  ])('asks again for a remote server when %s changes (P1, V1)', async (_field, changed) => {
    const store = await TrustStore.open(home, clock);
    await store.approve(entry('docs', remoteBase));
    expect(store.isTrusted(entry('docs', changed))).toBe(false);
    expect(store.isTrusted(entry('docs', remoteBase))).toBe(true);
    expect(store.isTrusted(entry('docs', remoteBase, { ...project, path: '/other/.mcp.json' }))).toBe(false);
  });

  it('keeps approvals of local servers given before remote ones were gated', () => {
    // trust.json files already hold hashes of this exact shape: changing it would silently revoke them.
    const fields = { command: 'node', args: ['server.js'], env: [['TOKEN', '${secret:T}']], cwd: '/proj', source: '/proj/.mcp.json' };
    expect(trustHash(stdio)).toBe(createHash('sha256').update(JSON.stringify(fields)).digest('hex'));
  });

  it('persists an approval in trust.json (mode 0600) that a new store reads back', async () => {
    const store = await TrustStore.open(home, clock);
    expect(await store.approve(stdio)).toEqual({ name: 'tools', sourcePath: '/proj/.mcp.json', hash: trustHash(stdio), approvedAt: 1_700_000_000_000 });
    expect(store.isTrusted(stdio)).toBe(true);
    expect((await stat(trustFile(home))).mode & 0o777).toBe(0o600);
    const reopened = await TrustStore.open(home, clock);
    expect(reopened.isTrusted(stdio)).toBe(true);
    expect(reopened.list()).toEqual(store.list());
  });

  it.each([
    ['command', { ...base, command: 'bash' }],
    ['an argument', { ...base, args: ['server.js', '--evil'] }],
    ['an env value', { ...base, env: { TOKEN: 'x' } }],
    ['an env key', { ...base, env: { TOKEN: '${secret:T}', LD_PRELOAD: '/tmp/x.so' } }],
    ['cwd', { ...base, cwd: '/tmp' }],
  ])('asks again when %s changes', async (_field, changed) => {
    const store = await TrustStore.open(home, clock);
    await store.approve(stdio);
    expect(store.isTrusted(entry('tools', changed))).toBe(false);
    expect(store.isTrusted(entry('tools', base))).toBe(true);
  });

  it('asks again for the same server in another file, or under another name', async () => {
    const store = await TrustStore.open(home, clock);
    await store.approve(stdio);
    expect(store.isTrusted(entry('tools', base, { ...project, path: '/other/.mcp.json' }))).toBe(false);
    expect(store.isTrusted(entry('tools2', base))).toBe(false);
  });

  it('does not ask again for changes that do not change what runs (timeouts, approval mode)', async () => {
    const store = await TrustStore.open(home, clock);
    await store.approve(stdio);
    expect(store.isTrusted(entry('tools', { ...base, timeout: 5, toolTimeout: 9, approval: 'auto' }))).toBe(true);
  });

  it('revokes an approval for good; revoking an unknown one changes nothing', async () => {
    const store = await TrustStore.open(home, clock);
    await store.approve(stdio);
    const before = await readFile(trustFile(home));
    expect(await store.revoke('tools', '/elsewhere/.mcp.json')).toBe(false);
    expect(await readFile(trustFile(home))).toEqual(before);
    expect(await store.revoke('tools', '/proj/.mcp.json')).toBe(true);
    expect(store.isTrusted(stdio)).toBe(false);
    expect((await TrustStore.open(home, clock)).isTrusted(stdio)).toBe(false);
  });

  it('keeps every approval when several are given at once', async () => {
    const store = await TrustStore.open(home, clock);
    const servers = ['a', 'b', 'c', 'd'].map((n) => entry(n, base));
    await Promise.all(servers.map((s) => store.approve(s)));
    const reopened = await TrustStore.open(home, clock);
    expect(servers.map((s) => reopened.isTrusted(s))).toEqual([true, true, true, true]);
  });

  it('fails closed on a corrupt trust.json: nothing trusted, and the reason is given', async () => {
    await mkdir(home, { recursive: true });
    await writeFile(trustFile(home), '{ not json');
    const store = await TrustStore.open(home, clock);
    expect(store.loadProblem).toBe(`${trustFile(home)} is not a valid trust file; every approval must be given again`);
    expect(store.isTrusted(stdio)).toBe(false);
  });
});
