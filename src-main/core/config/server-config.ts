/** The normalized model of one configured server, whatever file shape it came from. */

export type ConfigOrigin = 'switchboard' | 'bundle' | 'project' | 'claude-desktop' | 'vscode' | 'cursor';

export interface ConfigSource {
  /** Absolute path of the file. */
  path: string;
  origin: ConfigOrigin;
  /** Written by the user through Switchboard; anything else needs trust before a stdio spawn. */
  userWritten: boolean;
}

interface CommonServerConfig {
  name: string;
  enabled: boolean;
  /** Connect timeout, seconds. */
  timeout: number;
  /** Per tool call timeout, seconds (resets on progress). */
  toolTimeout: number;
  approval: 'ask' | 'auto';
  prefix?: string;
  source: ConfigSource;
}

export interface StdioServerConfig extends CommonServerConfig {
  kind: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export type RemoteTransportChoice = 'auto' | 'streamable-http' | 'sse';

export interface RemoteServerConfig extends CommonServerConfig {
  kind: 'remote';
  url: string;
  headers: Record<string, string>;
  transport: RemoteTransportChoice;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export const DEFAULT_CONNECT_TIMEOUT_S = 30;
export const DEFAULT_TOOL_TIMEOUT_S = 120;

/** A string map as key-sorted pairs, so a hash over it does not depend on the order it was written in. */
export const sortedEntries = (map: Record<string, string>): [string, string][] => Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
