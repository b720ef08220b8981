import { stat } from 'node:fs/promises';
import type { StdioServerConfig } from '../config/server-config';
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
 * Everything before a stdio server's process starts: the command resolved on the login PATH
 * (no shell, Windows shims run through node), the minimal environment, the transport.
 * A problem found here is the state reason; nothing was spawned.
 */
export async function prepareStdio(
  config: StdioServerConfig,
  options: StdioLaunchOptions,
): Promise<{ ok: true; transport: StdioProcessTransport } | { ok: false; message: string }> {
  if (config.cwd && !(await isDirectory(config.cwd))) return { ok: false, message: `working directory not found: ${config.cwd}` };
  const { resolved, path } = await resolveOnLoginPath(config.command, options.loginPath, config.cwd);
  if (!resolved.ok) return resolved;
  const launch = await launchWithoutShell(resolved.path, config.args, path);
  if (!launch.ok) return launch;
  const transport = new StdioProcessTransport({
    command: launch.command,
    args: launch.args,
    env: childEnvironment(config.env, path),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    maxLineBytes: options.maxLineBytes,
    stopGraceMs: options.stopGraceMs,
    onStderr: options.onStderr,
    onNoise: options.onNoise,
  });
  return { ok: true, transport };
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
