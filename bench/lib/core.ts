import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SwitchboardCore as Core } from '../../src-main/core/switchboard-core';
import { newCoreWith, startCoreWith, writeServersFile, type RunningCore } from './running-core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { launchHash, loadConfig, loginPathFile, MemoryVault, savedLoginPath, SwitchboardCore, ToolCache } from './shipped';
import { benchServer, type ServerCommand } from './servers';

export { writeServersFile, type RunningCore } from './running-core';

export function newCore(home: string): Core {
  return newCoreWith({ SwitchboardCore, MemoryVault }, home);
}

/** The whole core on a temp home, started, every server connected. */
export function startCore(label: string, servers: Record<string, ServerCommand>): Promise<RunningCore> {
  return startCoreWith(label, servers, newCore);
}

let keptLoginPath: string | undefined;

/**
 * What an earlier start leaves in a data home besides the tool cache: the login shell's PATH
 * (saved-login-path.ts). Read from the shell once per bench process, then copied.
 */
async function keepLoginPath(home: string): Promise<void> {
  const file = loginPathFile(home);
  if (keptLoginPath === undefined) {
    await savedLoginPath({ file })();
    keptLoginPath = await readFile(file, 'utf8');
    return;
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, keptLoginPath, { mode: 0o600 });
}

/**
 * A data home as an earlier start of Switchboard leaves it: `n` bench servers (bench-00, bench-01, …) serving
 * `tools`, whose tools are in the tool cache, and the login PATH kept.
 * `tools` is a bench server's list: echo and big-text, then its `--tools` generated ones.
 */
export async function homeAfterEarlierStart(home: string, n: number, tools: Tool[]): Promise<void> {
  await writeServersFile(home, Object.fromEntries(Array.from({ length: n }, (_, i) => [`bench-${String(i).padStart(2, '0')}`, benchServer(tools.length - 2, String(i))])));
  const cache = new ToolCache(home);
  const { servers } = await loadConfig({ home, projectDirs: [] });
  await Promise.all(servers.map((c) => cache.write(launchHash(c), tools)));
  await keepLoginPath(home);
}
