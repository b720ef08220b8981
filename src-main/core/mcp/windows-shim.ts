import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { resolveCommand } from './login-path';

export type ShimTarget = { ok: true; script: string } | { ok: false; message: string };

/**
 * On Windows `npx`, `uvx` and friends resolve to .cmd/.bat shims, which only a shell can run,
 * and we never spawn through a shell (SECURITY P2). npm's cmd-shim has a fixed shape that names
 * the JavaScript file it runs; we run that file with node instead. Anything else is refused.
 */
export function shimScript(shimPath: string, text: string): ShimTarget {
  // cmd-shim: "%_prog%"  "%dp0%\node_modules\npm\bin\npx-cli.js" %*   (older: "%~dp0\...\cli.js" %*)
  const match = /"%(?:~dp0|dp0%)\\([^"]+\.(?:c|m)?js)"\s+%\*/i.exec(text);
  if (match) return { ok: true, script: join(dirname(shimPath), ...match[1]!.split('\\')) };
  return {
    ok: false,
    message: `${shimPath} is a batch script, and Switchboard runs commands without a shell; set "command" to the program it starts`,
  };
}

export async function readShim(shimPath: string): Promise<ShimTarget> {
  try {
    return shimScript(shimPath, await readFile(shimPath, 'utf8'));
  } catch (error) {
    return { ok: false, message: `cannot read ${shimPath}: ${(error as Error).message}` };
  }
}

export const isBatchFile = (path: string): boolean => /\.(cmd|bat)$/i.test(path);

export type Launch = { ok: true; command: string; args: string[] } | { ok: false; message: string };

/** The executable and argv to spawn for a resolved command: itself, or node running a shim's script. */
export async function launchWithoutShell(resolved: string, args: string[], path: string, platform: NodeJS.Platform = process.platform): Promise<Launch> {
  if (platform !== 'win32' || !isBatchFile(resolved)) return { ok: true, command: resolved, args };
  const shim = await readShim(resolved);
  if (!shim.ok) return shim;
  const node = await resolveCommand('node', path);
  if (!node.ok) return node;
  return { ok: true, command: node.path, args: [shim.script, ...args] };
}
