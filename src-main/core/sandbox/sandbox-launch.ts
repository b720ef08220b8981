import { existsSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import which from 'which';
import type { SandboxSettings } from '../config/sandbox-config';
import { bwrapArgs } from './bwrap-args';
import { macosProfile } from './macos-profile';
import type { Resolve } from './net/filtering-proxy';
import { BRIDGE_PORT, bridgeRuntime, currentHostRuntime, type HostRuntime } from './net/proxy-bridge';
import { proxyEnvironment, SandboxNetwork } from './net/sandbox-network';
import { buildSandboxPlan, isInside, type SandboxPlan } from './sandbox-plan';

export interface ProcessLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export type SandboxedLaunch =
  /** `network`: the server's filtering proxy when it has allowedDomains; whoever runs the launch opens and closes it. */
  | { ok: true; launch: ProcessLaunch; plan: SandboxPlan; mechanism: 'bubblewrap' | 'sandbox-exec'; network?: SandboxNetwork }
  | { ok: true; launch: ProcessLaunch; plan: undefined; mechanism: 'none'; note: string }
  | { ok: false; message: string };

export const WINDOWS_NOT_SANDBOXED = 'not sandboxed: Windows has no sandbox for local servers yet';

/** A sandboxed server's own cache folder: ~/.cache/switchboard-sandbox/<name>, hidden from every other server. */
export function sandboxCacheFolder(home: string, server: string): string | undefined {
  if (!home) return undefined;
  return join(home, '.cache', 'switchboard-sandbox', server.replace(/[^A-Za-z0-9_-]/g, '_'));
}

/** Where package runners keep their caches, pointed into the server's private cache. */
export function packageCacheEnv(cache: string): Record<string, string> {
  return { npm_config_cache: join(cache, 'npm'), UV_CACHE_DIR: join(cache, 'uv'), XDG_CACHE_HOME: cache };
}

const BWRAP_PATHS = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'];
const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/**
 * The launch of a server that is to run sandboxed (SECURITY X1): the same command, argv and minimal env,
 * wrapped in bubblewrap (Linux) or sandbox-exec (macOS) — still no shell. Where the mechanism is missing
 * the server does not start (it was meant to be contained); on Windows, unless `required`, it runs as
 * before and says so plainly.
 */
export async function sandboxLaunch(
  launch: ProcessLaunch,
  options: {
    settings: SandboxSettings | undefined;
    home: string;
    dataHome: string;
    required: boolean;
    /** The project folders offered to every server as roots: grants. */
    roots?: string[];
    /** A folder of this server's own for package caches (npx, uvx): written inside, shared with no other server. */
    privateCache?: string;
    platform?: NodeJS.Platform;
    /** How the filtering proxy resolves names (tests); the system resolver otherwise. */
    resolve?: Resolve;
    /** What this process runs on, for the bridge's Node (tests); this process otherwise. */
    host?: HostRuntime;
  },
): Promise<SandboxedLaunch> {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') {
    if (options.required) return { ok: false, message: `refused: local servers must run sandboxed (set by your organization), and Windows has none yet` };
    return { ok: true, launch, plan: undefined, mechanism: 'none', note: WINDOWS_NOT_SANDBOXED };
  }
  const plan = buildSandboxPlan({
    command: launch.command,
    args: launch.args,
    ...(launch.cwd ? { cwd: launch.cwd } : {}),
    settings: options.settings,
    home: options.home,
    dataHome: options.dataHome,
    ...(options.roots ? { roots: options.roots } : {}),
  });
  if (options.privateCache) {
    // npx and uvx need a writable cache; the person's own (~/.npm) stays read-only, so a sandboxed server
    // cannot plant a package another, unsandboxed server would later run.
    await mkdir(options.privateCache, { recursive: true, mode: 0o700 });
    plan.grants.push({ path: options.privateCache, access: 'write', from: 'package' });
    launch = { ...launch, env: { ...launch.env, ...packageCacheEnv(options.privateCache) } };
  }
  if (platform === 'darwin') {
    if (!existsSync(SANDBOX_EXEC)) return { ok: false, message: 'cannot start sandboxed: /usr/bin/sandbox-exec is missing' };
    const temp = await mkdtemp(join(tmpdir(), 'switchboard-sandbox-'));
    // No network namespace on macOS: the proxy listens on a loopback port, the only address the profile opens.
    const network = await networkFor(plan, options.resolve);
    const port = network ? ((await network.open({ port: 0 })) as number) : undefined;
    const env = { ...launch.env, TMPDIR: temp, ...(port ? proxyEnvironment(`127.0.0.1:${port}`) : {}) };
    return {
      ok: true,
      plan,
      mechanism: 'sandbox-exec',
      launch: { ...launch, command: SANDBOX_EXEC, args: ['-p', macosProfile(plan, temp, port), '--', launch.command, ...launch.args], env },
      ...(network ? { network } : {}),
    };
  }
  const bwrap = BWRAP_PATHS.find((path) => existsSync(path));
  if (!bwrap) return { ok: false, message: 'cannot start sandboxed: bubblewrap is not installed (Debian/Ubuntu: apt-get install bubblewrap)' };
  if (plan.network.kind === 'none') {
    return { ok: true, plan, mechanism: 'bubblewrap', launch: { ...launch, command: bwrap, args: bwrapArgs(plan, launch.command, launch.args, launch.cwd), env: { ...launch.env, TMPDIR: '/tmp' } } };
  }
  // With domains: the bridge runs first inside the namespace, carries 127.0.0.1:BRIDGE_PORT to the proxy's
  // socket and starts the server as its child (net/proxy-bridge.ts).
  const host = options.host ?? currentHostRuntime();
  const runtime = bridgeRuntime(host, host.packaged ? ((await which('node', { path: launch.env.PATH ?? '', nothrow: true })) ?? undefined) : undefined);
  if (!runtime.ok) return { ok: false, message: runtime.message };
  const network = (await networkFor(plan, options.resolve))!;
  // The bridge's Node must be visible inside: bound back when it lives in a hidden place (~/.nvm is already).
  const runtimeFolder = dirname(runtime.command);
  if ([...plan.hidden, tmpdir()].some((folder) => isInside(runtimeFolder, folder)) && !plan.grants.some((g) => isInside(runtimeFolder, g.path))) {
    plan.grants.push({ path: runtimeFolder, access: 'read', from: 'toolchain' });
  }
  const inner = [network.bridgePath, network.socketPath, String(BRIDGE_PORT), launch.command, ...launch.args];
  const env = { ...launch.env, TMPDIR: '/tmp', ...proxyEnvironment(`127.0.0.1:${BRIDGE_PORT}`), ...runtime.env };
  return { ok: true, plan, mechanism: 'bubblewrap', network, launch: { ...launch, command: bwrap, args: bwrapArgs(plan, runtime.command, inner, launch.cwd, network.folder), env } };
}

/** The server's filtering proxy when its entry grants domains; none (and no network at all) otherwise. */
async function networkFor(plan: SandboxPlan, resolve: Resolve | undefined): Promise<SandboxNetwork | undefined> {
  if (plan.network.kind !== 'domains') return undefined;
  return SandboxNetwork.create({ rules: { allowed: plan.network.allowed, denied: plan.network.denied }, ...(resolve ? { resolve } : {}) });
}
