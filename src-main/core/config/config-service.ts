import type { SecretVault } from '../ports';
import { configHandlers, type ConfigHandlers } from './config-handlers';
import { ConfigWatcher } from './config-watcher';
import { expandServerConfig, type ExpandResult } from './expand';
import type { LoadedConfig } from './load-config';
import type { ServerConfig } from './server-config';
import { TrustStore } from './trust-store';

export interface ConfigServiceDeps {
  home: string;
  vault: SecretVault;
  /** Apply a new config; the manager diffs it against what runs. Called on start and on every change. */
  apply: (loaded: LoadedConfig) => Promise<void>;
  /** Restart one server (after its trust changed). */
  reconnect: (name: string) => Promise<void>;
  /** Where ${VAR} comes from (default: this process's environment). */
  env?: NodeJS.ProcessEnv;
  /** A failed reload or apply; the service keeps watching. */
  onError?: (error: unknown) => void;
  claudeConfigPath?: string;
  /** Fixed project folders (tests, CLI); default: the list in projects.json. */
  projectDirs?: string[];
}

/**
 * The config area as the core uses it: files watched and applied as they change, ${...}
 * expansion at connect time, the trust gate, and the handlers for the UI.
 */
export class ConfigService {
  readonly handlers: ConfigHandlers;
  private readonly watcher: ConfigWatcher;
  private trustStore: Promise<TrustStore> | undefined;

  constructor(private readonly deps: ConfigServiceDeps) {
    this.watcher = new ConfigWatcher({
      home: deps.home,
      ...(deps.projectDirs ? { projectDirs: deps.projectDirs } : {}),
      onChange: (loaded) => deps.apply(loaded),
      ...(deps.onError ? { onError: deps.onError } : {}),
    });
    this.handlers = configHandlers({
      home: deps.home,
      trust: () => this.trust(),
      current: () => this.watcher.current(),
      reload: () => this.watcher.reload(),
      reconnect: deps.reconnect,
      ...(deps.claudeConfigPath ? { claudeConfigPath: deps.claudeConfigPath } : {}),
    });
  }

  /** Load (applying the result) and start watching. */
  async start(): Promise<LoadedConfig> {
    await this.trust(); // approvals are read before the first server could ask for them
    return this.watcher.start();
  }

  stop(): void {
    this.watcher.stop();
  }

  reload(): Promise<LoadedConfig> {
    return this.watcher.reload();
  }

  current(): LoadedConfig | undefined {
    return this.watcher.current();
  }

  trust(): Promise<TrustStore> {
    this.trustStore ??= TrustStore.open(this.deps.home);
    return this.trustStore;
  }

  /** For McpManagerDeps.expand: ${VAR} from the environment, ${secret:NAME} from the vault, at connect time. */
  readonly expand = (config: ServerConfig): Promise<ExpandResult> => expandServerConfig(config, this.deps.env ?? process.env, this.deps.vault);

  /** For McpManagerDeps.trust: may this (project) stdio server start? */
  readonly isTrusted = async (config: ServerConfig): Promise<boolean> => (await this.trust()).isTrusted(config);
}
