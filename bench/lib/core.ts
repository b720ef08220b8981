import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SwitchboardCore as Core } from '../../src-main/core/switchboard-core';
import { newCoreWith, startCoreWith, type RunningCore } from './running-core';
import { loginPathFile, MemoryVault, savedLoginPath, SwitchboardCore } from './shipped';
import type { ServerCommand } from './servers';

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
export async function keepLoginPath(home: string): Promise<void> {
  const file = loginPathFile(home);
  if (keptLoginPath === undefined) {
    await savedLoginPath({ file })();
    keptLoginPath = await readFile(file, 'utf8');
    return;
  }
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, keptLoginPath, { mode: 0o600 });
}
