import type { Api, AppError, ServersSnapshot } from '../../src-preload/contract';

/** The servers snapshot as reactive state: loaded once, then replaced by every serversChanged event. */
export class ServersStore {
  snapshot = $state.raw<ServersSnapshot | undefined>(undefined);
  loadError = $state.raw<AppError | undefined>(undefined);
  /** Last failed action, shown until the next one succeeds. */
  actionError = $state.raw<AppError | undefined>(undefined);

  constructor(private readonly api: Api) {
    api.onServersChanged((next) => {
      this.snapshot = next;
    });
  }

  async load(): Promise<void> {
    const result = await this.api.listServers({});
    if (result.ok) {
      this.snapshot = result.value;
      this.loadError = undefined;
    } else {
      this.loadError = result.error;
    }
  }

  async run(action: () => Promise<{ ok: true } | { ok: false; error: AppError }>): Promise<void> {
    const result = await action();
    this.actionError = result.ok ? undefined : result.error;
  }
}
