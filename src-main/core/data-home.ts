import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where config, caches and conversations live: the platform's user-data dir for
 * "Switchboard" (the same path Electron's app.getPath('userData') gives), or SWITCHBOARD_HOME.
 */
export function dataHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env.SWITCHBOARD_HOME?.trim();
  if (override) return override;
  const home = env.HOME || homedir();
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Switchboard');
    case 'win32':
      return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Switchboard');
    default:
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Switchboard');
  }
}

export const serversFile = (home: string): string => join(home, 'servers.json');
/** Servers installed from .mcpb bundles: written by Switchboard, not by the person (see install/bundle-store). */
export const bundlesFile = (home: string): string => join(home, 'bundles.json');
/** The login shell's PATH as last read (mcp/saved-login-path): not a secret, and rebuilt if lost. */
export const loginPathFile = (home: string): string => join(home, 'cache', 'login-path.json');
