import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpManager } from '../../../src-main/core/mcp/mcp-manager';
import { isPackageRunner, withInstallProgress } from '../../../src-main/core/mcp/first-run';
import { EVERYTHING, fixture, is, manager, stdio, tempHome, waitForState } from './helpers';

/**
 * A first start that outlasts the connect timeout while it is busy (the package manager downloading):
 * real processes, a 1 s timeout, a fixture "package manager" that works for several seconds before
 * it runs server-everything in its place.
 */
let home: { home: string; cleanup: () => Promise<void> };
let m: McpManager | undefined;
beforeEach(async () => {
  home = await tempHome();
});
afterEach(async () => {
  await m?.stop();
  m = undefined;
  await home.cleanup();
});

const slow = (name: string, mode: string, seconds: number) => stdio(name, [fixture('slow-package-manager.mjs'), mode, String(seconds), EVERYTHING], { timeout: 1 });

// Each test waits up to 60 s for its state: the test's own limit sits above that, so a slow start fails with the state it was in.
describe('first start of a busy server', { timeout: 120_000 }, () => {
  it('keeps waiting while the package manager prints progress, shows it as the state and in the log, then connects', async () => {
    m = manager(home.home);
    const reasons: string[] = [];
    m.onChange(() => {
      const state = m?.status('pkg')?.state;
      if (state?.kind === 'connecting') reasons.push(state.reason);
    });
    await m.apply([slow('pkg', 'progress', 4)]);
    expect(await waitForState(m, 'pkg', (s) => s.kind !== 'connecting', 60_000)).toEqual({ kind: 'connected', reason: 'connected over stdio' });
    expect(reasons.some((r) => /^starting node · npm http fetch GET 200 https:\/\/registry\.npmjs\.org\/fixture-dep-\d+/.test(r))).toBe(true);
    expect(m.logs('pkg')).toContain('npm http fetch GET 200 https://registry.npmjs.org/fixture-dep-1 21ms (cache miss)');
    expect(m.tools().some((t) => t.qualifiedName === 'pkg__echo')).toBe(true);
  });

  it('keeps waiting while the process works silently (CPU), then connects', async () => {
    m = manager(home.home);
    await m.apply([slow('busy', 'silent-busy', 4)]);
    expect(await waitForState(m, 'busy', (s) => s.kind !== 'connecting', 60_000)).toEqual({ kind: 'connected', reason: 'connected over stdio' });
  });

  it('still times out a server that sits idle, after the timeout without progress', async () => {
    m = manager(home.home);
    await m.apply([stdio('hang', [fixture('hang-initialize.mjs')], { timeout: 1 })]);
    expect(await waitForState(m, 'hang', is('error'), 30_000)).toMatchObject({ kind: 'error', reason: 'timed out after 1 s during initialize' });
  });

  it('ends a start that stays busy forever at the cap of ten timeouts', async () => {
    m = manager(home.home);
    await m.apply([slow('forever', 'progress-forever', 0)]);
    expect(await waitForState(m, 'forever', is('error'), 60_000)).toMatchObject({ kind: 'error', reason: 'timed out after 10 s, the most a busy start may take, during initialize' });
    expect(m.logs('forever').length).toBeGreaterThan(20);
  });

  it('stays in error while a start that timed out prints on in its stop grace period', async () => {
    m = manager(home.home, { stopGraceMs: 5_000 });
    await m.apply([slow('forever', 'progress-forever', 0)]);
    await waitForState(m, 'forever', is('error'), 60_000);
    const atFailure = m.logs('forever').length;
    // npm goes on naming fetches until it is stopped: lines for its log, never the state's detail again.
    await expect.poll(() => m!.logs('forever').length, { timeout: 30_000 }).toBeGreaterThan(atFailure + 3);
    expect(m.status('forever')?.state).toMatchObject({ kind: 'error', reason: 'timed out after 10 s, the most a busy start may take, during initialize' });
  });
});

describe('package runners', { timeout: 120_000 }, () => {
  it('starts a package runner once more by itself when its first start timed out, and says so in the log', async () => {
    const bin = join(home.home, 'bin');
    await mkdir(bin);
    await symlink(fixture('hang-first-time.mjs'), join(bin, 'npx'));
    m = manager(home.home);
    await m.apply([stdio('runner', [join(home.home, 'marker'), EVERYTHING], { command: join(bin, 'npx'), timeout: 1 })]);
    expect(await waitForState(m, 'runner', (s) => s.kind === 'connected' || s.kind === 'error', 60_000)).toEqual({ kind: 'connected', reason: 'connected over stdio' });
    expect(m.logs('runner')).toContain(`[switchboard] the first start of ${join(bin, 'npx')} timed out after 1 s during initialize; starting it once more (what it downloaded is kept)`);
  });

  it('does not retry a first start that timed out when the command is not a package runner', async () => {
    m = manager(home.home);
    await m.apply([stdio('plain', [fixture('hang-first-time.mjs'), join(home.home, 'marker'), EVERYTHING], { timeout: 1 })]);
    expect(await waitForState(m, 'plain', (s) => s.kind === 'connected' || s.kind === 'error', 60_000)).toMatchObject({ kind: 'error', reason: 'timed out after 1 s during initialize' });
  });

  it('knows npx, uvx and npm exec, and asks npm for its fetch progress unless the person set a log level', () => {
    const npx = stdio('x', ['-y', 'pkg'], { command: 'npx' });
    expect(isPackageRunner(npx)).toBe(true);
    expect(isPackageRunner(stdio('x', ['tool'], { command: '/usr/local/bin/uvx' }))).toBe(true);
    expect(isPackageRunner(stdio('x', ['exec', 'pkg'], { command: 'npm' }))).toBe(true);
    expect(isPackageRunner(stdio('x', ['server.js']))).toBe(false);
    expect(withInstallProgress(npx).env).toEqual({ npm_config_loglevel: 'http' });
    expect(withInstallProgress({ ...npx, env: { NPM_CONFIG_LOGLEVEL: 'silent' } }).env).toEqual({ NPM_CONFIG_LOGLEVEL: 'silent' });
    expect(withInstallProgress(stdio('x', ['tool'], { command: 'uvx' })).env).toEqual({});
  });
});
