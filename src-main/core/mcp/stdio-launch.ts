import { stat } from 'node:fs/promises';
import type { StdioServerConfig } from '../config/server-config';
import { readProjects } from '../config/project-list';
import { dataHome } from '../data-home';
import { readPolicy } from '../policy/policy-file';
import { identityOf, sandboxRequired, serverVerdict } from '../policy/policy-rules';
import { sandboxCacheFolder, sandboxLaunch } from '../sandbox/sandbox-launch';
import { SandboxedTransport } from '../sandbox/sandboxed-transport';
import { childEnvironment } from './child-env';
import { resolveOnLoginPath, type LoginPathSource } from './login-path';
import { StdioProcessTransport } from './stdio-transport';
import { launchWithoutShell } from './windows-shim';

export interface StdioLaunchOptions {
  loginPath: LoginPathSource;
  maxLineBytes: number;
  stopGraceMs: number;
  onStderr: (chunk: string) => void;
  onNoise: (line: string) => void;
}

/**
 * Everything before a stdio server's process starts: the administrator's policy (SECURITY X2, read fresh
 * each start so a change applies to the next one), the command resolved on the login PATH (no shell,
 * Windows shims run through node), the minimal environment, the OS sandbox when the entry or the policy
 * asks for it (X1), the transport. A problem found here is the state reason; nothing was spawned.
 */
export async function prepareStdio(
  config: StdioServerConfig,
  options: StdioLaunchOptions,
): Promise<{ ok: true; transport: StdioProcessTransport } | { ok: false; message: string }> {
  const policy = await readPolicy();
  const verdict = serverVerdict(policy, identityOf(config));
  if (!verdict.ok) return { ok: false, message: verdict.reason };
  if (config.cwd && !(await isDirectory(config.cwd))) return { ok: false, message: `working directory not found: ${config.cwd}` };
  const { resolved, path } = await resolveOnLoginPath(config.command, options.loginPath, config.cwd);
  if (!resolved.ok) return resolved;
  const launch = await launchWithoutShell(resolved.path, config.args, path);
  if (!launch.ok) return launch;
  const env = childEnvironment(config.env, path);
  const child = { command: launch.command, args: launch.args, env, ...(config.cwd ? { cwd: config.cwd } : {}) };
  const required = sandboxRequired(policy);
  const transportOptions = { maxLineBytes: options.maxLineBytes, stopGraceMs: options.stopGraceMs, onStderr: options.onStderr, onNoise: options.onNoise };
  if (!config.sandboxEnabled && !required) return { ok: true, transport: new StdioProcessTransport({ ...child, ...transportOptions }) };
  const home = env.HOME ?? '';
  const data = dataHome();
  const roots = (await readProjects(data)).projects;
  const sandboxed = await sandboxLaunch(child, { settings: config.sandbox, home, dataHome: data, required, roots, privateCache: sandboxCacheFolder(home, config.name) });
  if (!sandboxed.ok) return sandboxed;
  if (!sandboxed.plan) {
    options.onNoise(`[sandbox] ${sandboxed.note}`);
    return { ok: true, transport: new StdioProcessTransport({ ...sandboxed.launch, ...transportOptions }) };
  }
  return { ok: true, transport: new SandboxedTransport({ ...sandboxed.launch, ...transportOptions }, sandboxed.plan, home, sandboxed.network) };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
