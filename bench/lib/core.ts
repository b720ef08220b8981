import type { SwitchboardCore as Core } from '../../src-main/core/switchboard-core';
import { newCoreWith, startCoreWith, type RunningCore } from './running-core';
import { MemoryVault, SwitchboardCore } from './shipped';
import type { ServerCommand } from './servers';

export { writeServersFile, type RunningCore } from './running-core';

export function newCore(home: string): Core {
  return newCoreWith({ SwitchboardCore, MemoryVault }, home);
}

/** The whole core on a temp home, started, every server connected. */
export function startCore(label: string, servers: Record<string, ServerCommand>): Promise<RunningCore> {
  return startCoreWith(label, servers, newCore);
}
