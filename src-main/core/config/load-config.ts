import type { ConfigProblem } from '../../../src-preload/contract';
import { serversFile } from '../data-home';
import { readConfigFile } from './read-config-file';
import type { ServerConfig } from './server-config';

export interface LoadedConfig {
  /** The winning entry for each name, highest-priority source first. */
  servers: ServerConfig[];
  /** name -> source paths of lower-priority entries with the same name (listed, never merged). */
  shadowed: Record<string, string[]>;
  problems: ConfigProblem[];
  /** MCP switched off as a whole in Switchboard's own file. */
  mcpDisabled: boolean;
  /** Every file consulted, for watching. */
  files: string[];
}

export interface LoadConfigOptions {
  home: string;
  /** Folders the user opened as projects; their .mcp.json, .vscode/mcp.json and .cursor/mcp.json are read. */
  projectDirs?: string[];
}

/** Everything the user has configured, merged by precedence. */
export async function loadConfig({ home }: LoadConfigOptions): Promise<LoadedConfig> {
  const path = serversFile(home);
  const own = await readConfigFile({ path, origin: 'switchboard', userWritten: true });
  return { servers: own.servers, shadowed: {}, problems: own.problems, mcpDisabled: own.mcpDisabled, files: [path] };
}
