import { homedir } from 'node:os';
import { join } from 'node:path';
import { readServersDocument } from '../../../src-preload/contract/servers-document';

/** Where Claude Desktop keeps its config on each OS (Linux builds follow XDG). */
export function claudeDesktopConfigPath(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const home = env.HOME || homedir();
  switch (platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
    case 'win32':
      return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
    default:
      return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'Claude', 'claude_desktop_config.json');
  }
}

/** The entries as written, by the one reader's rule, so an import copies them field for field; none when unreadable. */
export function rawEntries(text: string): Record<string, Record<string, unknown>> {
  const doc = readServersDocument(text);
  return doc.ok ? (doc.entries as Record<string, Record<string, unknown>>) : {};
}
