// Starting a SwitchboardCore on a temp home, for the figures. No Switchboard code is imported here:
// the caller hands in how to build the core, so a probe can load only the part of the shipped build it measures.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MemoryVault as Vault } from '../../src-main/core/secrets/memory-vault';
import type { SwitchboardCore as Core } from '../../src-main/core/switchboard-core';
import { quietLogger, tempHome, type ServerCommand } from './servers';

/** The classes a core is built from, taken from whichever shipped build the caller loaded. */
export interface CoreClasses {
  SwitchboardCore: typeof Core;
  MemoryVault: typeof Vault;
}

export interface RunningCore {
  core: Core;
  home: string;
  stop(): Promise<void>;
}

/** Write `servers` to a fresh data home's servers.json, as the user would through Switchboard. */
export async function writeServersFile(home: string, servers: Record<string, ServerCommand & { sandboxEnabled?: boolean }>): Promise<void> {
  const entries = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { command: s.command, args: s.args, approval: 'auto', ...(s.sandboxEnabled ? { sandboxEnabled: true } : {}) }]));
  await writeFile(join(home, 'servers.json'), `${JSON.stringify({ servers: entries }, null, 2)}\n`);
}

/** A core on `home` as the bench runs it: secrets in memory, no browser, no log output. */
export function newCoreWith(classes: CoreClasses, home: string): Core {
  return new classes.SwitchboardCore({
    home,
    vault: new classes.MemoryVault(),
    opener: { open: async () => {} },
    logger: quietLogger,
  });
}

/** The whole core built by `make` on a temp home, started, every server connected. */
export async function startCoreWith(label: string, servers: Record<string, ServerCommand & { sandboxEnabled?: boolean }>, make: (home: string) => Core): Promise<RunningCore> {
  const { home, cleanup } = await tempHome(label);
  let core: Core;
  try {
    await writeServersFile(home, servers);
    core = make(home);
  } catch (error) {
    await cleanup();
    throw error;
  }
  try {
    await core.start();
    await core.mcp.settled(60_000);
    const down = core.mcp.statuses().find((s) => s.state.kind !== 'connected');
    if (down) throw new Error(`server ${down.name} did not connect: ${down.state.kind}: ${down.state.reason}`);
  } catch (error) {
    await core.stop();
    await cleanup();
    throw error;
  }
  return {
    core,
    home,
    stop: async () => {
      await core.stop();
      await cleanup();
    },
  };
}
