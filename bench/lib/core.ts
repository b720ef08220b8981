import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SwitchboardCore as Core } from '../../src-main/core/switchboard-core';
import { MemoryVault, SwitchboardCore } from './shipped';
import { quietLogger, tempHome, type ServerCommand } from './servers';

export interface RunningCore {
  core: Core;
  home: string;
  stop(): Promise<void>;
}

/** Write `servers` to a fresh data home's servers.json, as the user would through Switchboard. */
export async function writeServersFile(home: string, servers: Record<string, ServerCommand>): Promise<void> {
  const entries = Object.fromEntries(Object.entries(servers).map(([name, s]) => [name, { command: s.command, args: s.args, approval: 'auto' }]));
  await writeFile(join(home, 'servers.json'), `${JSON.stringify({ servers: entries }, null, 2)}\n`);
}

export function newCore(home: string): Core {
  return new SwitchboardCore({
    home,
    vault: new MemoryVault(),
    opener: { open: async () => {} },
    logger: quietLogger,
  });
}

/** The whole core on a temp home, started, every server connected. */
export async function startCore(label: string, servers: Record<string, ServerCommand>): Promise<RunningCore> {
  const { home, cleanup } = await tempHome(label);
  let core: Core;
  try {
    await writeServersFile(home, servers);
    core = newCore(home);
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
