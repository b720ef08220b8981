import type { Handlers, ServersSnapshot, ServerView } from '../../src-preload/contract';
import { AppFailure } from './app-error';
import { loadConfig } from './config/load-config';
import type { ServerConfig } from './config/server-config';
import { serversFile } from './data-home';
import { EventHub } from './event-hub';
import type { Logger, SecretVault, UrlOpener } from './ports';
import { aggregateStatus } from './status';

export interface CoreDeps {
  home: string;
  vault: SecretVault;
  opener: UrlOpener;
  logger: Logger;
}

/** The whole app in plain Node; the Electron shell and the web host are thin adapters over it. */
export class SwitchboardCore {
  readonly events = new EventHub();
  private configs: ServerConfig[] = [];
  private snapshotCache: ServersSnapshot;

  constructor(private readonly deps: CoreDeps) {
    this.snapshotCache = this.buildSnapshot([], [], false);
  }

  get configPath(): string {
    return serversFile(this.deps.home);
  }

  async start(): Promise<void> {
    await this.reload();
  }

  async stop(): Promise<void> {}

  snapshot(): ServersSnapshot {
    return this.snapshotCache;
  }

  private async reload(): Promise<void> {
    const loaded = await loadConfig({ home: this.deps.home });
    this.configs = loaded.servers;
    this.snapshotCache = this.buildSnapshot(loaded.servers, loaded.problems, loaded.mcpDisabled);
    this.events.emit('serversChanged', this.snapshotCache);
  }

  private buildSnapshot(configs: ServerConfig[], problems: ServersSnapshot['problems'], mcpDisabled: boolean): ServersSnapshot {
    const servers: ServerView[] = configs.map((c) => ({
      name: c.name,
      transport: c.kind === 'stdio' ? 'stdio' : c.transport === 'sse' ? 'sse' : 'http',
      source: c.source.path,
      enabled: c.enabled,
      state: c.enabled && !mcpDisabled ? 'connecting' : 'disabled',
      toolCount: 0,
      shadowed: [],
    }));
    return { servers, problems, status: aggregateStatus(servers, mcpDisabled), configPath: this.configPath };
  }

  private requireServer(name: string): ServerConfig {
    const config = this.configs.find((c) => c.name === name);
    if (!config) throw new AppFailure('not_found', `no server named "${name}"`);
    return config;
  }

  readonly handlers: Handlers = {
    listServers: async () => this.snapshot(),
    reconnectServer: async ({ name }) => {
      this.requireServer(name);
      return null;
    },
    reconnectAll: async () => null,
    setServerEnabled: async ({ name }) => {
      this.requireServer(name);
      return null;
    },
    serverLogs: async ({ name }) => {
      this.requireServer(name);
      return { name, stderr: [] };
    },
    listTools: async () => [],
    openExternal: async ({ url }) => {
      await this.deps.opener.open(url);
      return null;
    },
  };
}
